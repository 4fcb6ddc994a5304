package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Handler;
import io.kopf4j.Operator;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A status that the resource's structural schema does not allow: the API server rejects its PATCH
 * (422) every time. It is left out with one error, and the progress and the diff-base are stored
 * without it, so that a handler that succeeded never runs again because of it (Kopf would run it
 * again at every event: its side effects repeat, and a handler that creates children fails on
 * AlreadyExists from its second run on).
 */
@ExtendWith(LocalClusterExtension.class)
class RejectedResultsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String GROUP = "rejecting.example.com";
    private static final String RESOURCE = "rejectingthings." + GROUP;
    /** status.create must be an integer, status.phase a string; anything else in the status is kept. */
    private static final String SCHEMA = "{type: object, properties: {"
            + "spec: {type: object, x-kubernetes-preserve-unknown-fields: true},"
            + " status: {type: object, x-kubernetes-preserve-unknown-fields: true,"
            + " properties: {create: {type: integer}, phase: {type: string}}}}}";
    private static final String DIFF_BASE = "kopf.zalando.org/last-handled-configuration";

    private static KopfExamples install(OperatorFixture fixture) throws Exception {
        fixture.installCrd(GROUP, "rejectingthings", "RejectingThing", SCHEMA);
        return fixture.objects(GROUP + "/v1", "RejectingThing");
    }

    /** An update handler whose result the schema allows: it goes on working, its result stored. */
    private static Handler sizeOnUpdate() {
        return Handler.update(RESOURCE).id("update").handle(context -> context.spec().get("size"));
    }

    /** Changes the object's spec a few times, each time until its update handler's result is stored: events after the first. */
    private static void updateSeveralTimes(KopfExamples things, String name) {
        for (int size = 2; size <= 4; size++) {
            things.patch(name, Map.of("spec", Map.of("size", size)));
            int expected = size;
            await().atMost(WAIT).untilAsserted(() -> assertThat(things.status(name)).containsEntry("update", expected));
        }
    }

    @Test
    void aResultTheSchemaRejectsIsLeftOutOnceAndItsHandlerNeverRunsAgain(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples things = install(fixture);
        AtomicInteger creations = new AtomicInteger();
        try (CapturedLogs lines = new CapturedLogs("kopf.objects");
             Operator operator = fixture.start(fixture.operator()
                     .handler(Handler.create(RESOURCE).id("create").handle(context -> {
                         creations.incrementAndGet();
                         context.client().configMaps().inNamespace(namespace.name())
                                 .resource(HandlerClientTest.child(context.body())).create();
                         return "created";   // a string where the schema wants an integer
                     }))
                     .handler(sizeOnUpdate()))) {
            things.create("t1", Map.of("size", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(things.annotations("t1")).containsKey(DIFF_BASE));
            updateSeveralTimes(things, "t1");

            assertThat(creations).as("the create handler's runs").hasValue(1);
            String error = "Handler 'create' succeeded, but its result in status.create is not stored: "
                    + "the API server rejected it: HTTP 422: ";
            assertThat(lines.count(error)).as("errors about the rejected result").isEqualTo(1);
            assertThat(lines.count("status.create in body must be of type integer")).as("the API server's message")
                    .isEqualTo(1);
            assertThat(things.status("t1")).doesNotContainKey("create");
        }
    }

    @Test
    void aStatusTheSchemaRejectsIsLeftOutOnceAndTheHandlerNeverRunsAgain(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples things = install(fixture);
        AtomicInteger creations = new AtomicInteger();
        try (CapturedLogs lines = new CapturedLogs("kopf.objects");
             Operator operator = fixture.start(fixture.operator()
                     .handler(Handler.create(RESOURCE).id("create").handle(context -> {
                         creations.incrementAndGet();
                         context.patch().status().put("phase", 5);   // a number where the schema wants a string
                         return null;
                     }))
                     .handler(sizeOnUpdate()))) {
            things.create("t2", Map.of("size", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(things.annotations("t2")).containsKey(DIFF_BASE));
            updateSeveralTimes(things, "t2");

            assertThat(creations).as("the create handler's runs").hasValue(1);
            String error = "The status patch is not stored: the API server rejected it (status.phase): HTTP 422: ";
            assertThat(lines.count(error)).as("errors about the rejected status").isEqualTo(1);
            assertThat(lines.count("status.phase in body must be of type string")).as("the API server's message")
                    .isEqualTo(1);
            assertThat(things.status("t2")).doesNotContainKey("phase");
        }
    }
}
