package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Handler;
import io.kopf4j.HandlerFn;
import io.kopf4j.Operator;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
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

    /**
     * Runs the create handler (counting its runs) beside an update handler whose result the schema
     * allows, creates an object, waits for its diff-base, then changes it several times, each time
     * until the update handler's result is stored: events after the first that would each have run
     * the create handler again. It must have run once, and the error have been logged once.
     *
     * @param error the error's text up to the API server's message
     * @param serverMessage a part of the API server's message
     * @param field the status field that is not stored
     */
    private static void createdOnceWithOneError(LocalCluster cluster, TemporaryNamespace namespace, HandlerFn create,
                                                String error, String serverMessage, String field) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        fixture.installCrd(GROUP, "rejectingthings", "RejectingThing", SCHEMA);
        KopfExamples things = fixture.objects(GROUP + "/v1", "RejectingThing");
        AtomicInteger creations = new AtomicInteger();
        try (CapturedLogs lines = new CapturedLogs("kopf.objects");
             Operator operator = fixture.start(fixture.operator()
                     .handler(Handler.create(RESOURCE).id("create").handle(context -> {
                         creations.incrementAndGet();
                         return create.call(context);
                     }))
                     .handler(Handler.update(RESOURCE).id("update").handle(context -> context.spec().get("size"))))) {
            things.create("t", Map.of("size", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(things.annotations("t")).containsKey(DIFF_BASE));
            for (int size = 2; size <= 4; size++) {
                things.patch("t", Map.of("spec", Map.of("size", size)));
                int expected = size;
                await().atMost(WAIT).untilAsserted(() -> assertThat(things.status("t")).containsEntry("update", expected));
            }

            assertThat(creations).as("the create handler's runs").hasValue(1);
            assertThat(lines.count(error + "HTTP 422: ")).as("errors about the rejected status").isEqualTo(1);
            assertThat(lines.count(serverMessage)).as("the API server's message").isEqualTo(1);
            assertThat(things.status("t")).doesNotContainKey(field);
        }
    }

    @Test
    void aResultTheSchemaRejectsIsLeftOutOnceAndItsHandlerNeverRunsAgain(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        createdOnceWithOneError(cluster, namespace, context -> {
            context.client().configMaps().inNamespace(namespace.name())
                    .resource(HandlerClientTest.child(context.body())).create();   // AlreadyExists at a second run
            return "created";   // a string where the schema wants an integer
        }, "Handler 'create' succeeded, but its result in status.create is not stored: the API server rejected it: ",
                "status.create in body must be of type integer", "create");
    }

    @Test
    void aStatusTheSchemaRejectsIsLeftOutOnceAndTheHandlerNeverRunsAgain(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        createdOnceWithOneError(cluster, namespace, context -> {
            context.patch().status().put("phase", 5);   // a number where the schema wants a string
            return null;
        }, "The status patch is not stored: the API server rejected it (status.phase): ",
                "status.phase in body must be of type string", "phase");
    }
}
