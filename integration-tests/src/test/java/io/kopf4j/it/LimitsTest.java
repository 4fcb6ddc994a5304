package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Handler;
import io.kopf4j.HandlerFn;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.TemporaryError;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.storage.AnnotationPrefixes;
import io.kopf4j.storage.AnnotationsDiffBaseStorage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Objects at the API server's size limits: a 1.5 MB spec, whose essence does not fit in the 256 KiB
 * that all annotations of an object may hold together, and a handler's error message too long for
 * its progress annotation. The operator says so once per attempt, naming the annotation, the limit
 * and the remedies, and never loops; with the big field left out of the diff-base, the object is
 * handled as any other: its create and update handlers run once each.
 */
@ExtendWith(LocalClusterExtension.class)
class LimitsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String GROUP = "limits.example.com";
    private static final String RESOURCE = "bigthings." + GROUP;
    private static final String DIFF_BASE = "kopf.zalando.org/last-handled-configuration";
    /** A spec field of 1.5 MB: the object still fits in etcd's 1.5 MiB for one request, its essence not in the annotations. */
    private static final String BLOB = "x".repeat(1_500_000);
    private static final String CLEAR_ERROR = "due to an unexpected error: AnnotationsTooLargeError: The annotations are not stored: with ";
    private static final String LIMIT = "exceed the API server's limit of 262144 bytes in total.";

    private static KopfExamples bigThings(OperatorFixture fixture) throws Exception {
        fixture.installCrd(GROUP, "bigthings", "BigThing", OperatorFixture.ANY_FIELDS);
        return fixture.objects(GROUP + "/v1", "BigThing");
    }

    /**
     * Creates an object whose handling stores annotations over the limit, with a create handler
     * that counts its runs, and waits until the throttling after the error is over without a newer
     * event: the moment a loop would have patched and handled again. By then: one error naming the
     * annotation, the limit and the remedy; nothing sent (the status neither, whose write would bring
     * an event); one run.
     *
     * @param handler the create handler, after its run is counted
     * @param mentions what the error names besides the limit
     */
    private static void handledOnceWithOneClearError(LocalCluster cluster, TemporaryNamespace namespace,
                                                     Map<String, Object> spec, HandlerFn handler, String... mentions)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples things = bigThings(fixture);
        OperatorSettings settings = new OperatorSettings();
        settings.queueing.errorDelays = List.of(Duration.ofMillis(200));   // a loop would show at once
        AtomicInteger runs = new AtomicInteger();
        try (CapturedLogs lines = new CapturedLogs("kopf.objects");
             Operator operator = fixture.start(fixture.operator().settings(settings)
                     .handler(Handler.create(RESOURCE).id("create").handle(context -> {
                         runs.incrementAndGet();
                         return handler.call(context);
                     })))) {
            things.create("t", spec);

            await().atMost(WAIT).until(() -> lines.count("Throttling is over.") >= 1);
            assertThat(lines.count(CLEAR_ERROR)).as("errors about the annotations").isEqualTo(1);
            String error = lines.messages().stream().filter(line -> line.contains(CLEAR_ERROR)).findFirst().orElseThrow();
            assertThat(error).startsWith(fixture.about("t")).contains(LIMIT).contains(mentions).hasSizeLessThan(2000);
            assertThat(runs).as("the handler's runs").hasValue(1);
            assertThat(lines.count("Merge-patching")).as("patches").isZero();
            assertThat(things.annotations("t")).doesNotContainKey(DIFF_BASE);
        }
    }

    @Test
    void aDiffBaseOverTheAnnotationsLimitIsOneClearErrorAndNoLoop(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        handledOnceWithOneClearError(cluster, namespace, Map.of("blob", BLOB), context -> "created",
                DIFF_BASE + " (15000", "settings.persistence.diffbaseStorage", "StatusDiffBaseStorage");
    }

    @Test
    void anErrorMessageOverTheAnnotationsLimitIsOneClearErrorAndNoLoop(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        handledOnceWithOneClearError(cluster, namespace, Map.of("size", 1), context -> {
            throw new TemporaryError("y".repeat(300_000), Duration.ofMillis(100));
        }, "kopf.zalando.org/create (3001", "StatusProgressStorage");
    }

    @Test
    void aBigObjectWithItsBigFieldLeftOutOfTheDiffBaseIsHandledOnceEach(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples things = bigThings(fixture);
        OperatorSettings settings = new OperatorSettings();
        settings.persistence.diffbaseStorage = new AnnotationsDiffBaseStorage(AnnotationPrefixes.KOPF_PREFIX,
                AnnotationsDiffBaseStorage.DEFAULT_KEY, List.of("spec.blob"));
        AtomicInteger creations = new AtomicInteger();
        AtomicInteger updates = new AtomicInteger();
        try (CapturedLogs lines = new CapturedLogs("kopf.objects");
             Operator operator = fixture.start(fixture.operator().settings(settings)
                     .handler(Handler.create(RESOURCE).id("create").handle(context -> creations.incrementAndGet()))
                     .handler(Handler.update(RESOURCE).id("update").handle(context -> updates.incrementAndGet())))) {
            things.create("big", Map.of("size", 1, "blob", BLOB));
            await().atMost(WAIT).untilAsserted(() -> assertThat(things.annotations("big")).containsKey(DIFF_BASE));
            assertThat(things.annotations("big").get(DIFF_BASE)).isEqualTo("{\"spec\":{\"size\":1}}\n");

            things.patch("big", Map.of("spec", Map.of("size", 2)));
            await().atMost(WAIT).untilAsserted(() ->
                    assertThat(things.annotations("big").get(DIFF_BASE)).isEqualTo("{\"spec\":{\"size\":2}}\n"));
            assertThat(creations).as("the create handler's runs").hasValue(1);
            assertThat(updates).as("the update handler's runs").hasValue(1);
            assertThat(lines.count("unexpected error")).isZero();
        }
    }
}
