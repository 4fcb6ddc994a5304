package io.kopf4j.it;

import static io.kopf4j.it.KopfExamples.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kopf4j.Body;
import io.kopf4j.Filter;
import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.internal.runtime.Versions;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kopf 1.44's processing semantics where kopf4j once differed, each on the real API server: the
 * essence includes the handlers' fields, creation never mixes with resuming, event handlers see
 * every event, field-change filters stay out of the pre-match, throttling waits for the next event,
 * an event handler's ABSENT filter, and Kopf's log lines of a handling cycle.
 */
@ExtendWith(LocalClusterExtension.class)
class KopfFidelityTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static void patchStatus(LocalCluster cluster, String namespace, String name, String json) {
        cluster.client().genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace)
                .withName(name).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), json);
    }

    public static class StatusFieldHandlers {
        @On.Field(value = "kopfexamples", field = "status.phase")
        public Map<String, Object> phase(Object old, Object current) {
            return Map.of("old", String.valueOf(old), "new", String.valueOf(current));
        }
    }

    @Test
    void handlersOfStatusFieldsRunWhenTheFieldChanges(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(StatusFieldHandlers.class)) {
            examples.create("ex", Map.of("size", 1));
            patchStatus(cluster, namespace.name(), "ex", "{\"status\":{\"phase\":\"Running\"}}");
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex"))
                    .containsEntry("phase/status.phase", Map.of("old", "null", "new", "Running")));
            patchStatus(cluster, namespace.name(), "ex", "{\"status\":{\"phase\":\"Done\"}}");
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex"))
                    .containsEntry("phase/status.phase", Map.of("old", "Running", "new", "Done")));
            assertThat(examples.annotations("ex").get("kopf.zalando.org/last-handled-configuration"))
                    .as("the field is part of the stored essence, as in Kopf").contains("\"status\":{\"phase\":\"Done\"}");
        }
    }

    @Test
    void creationNeverMixesWithResumingForObjectsListedAtStart(LocalCluster cluster, TemporaryNamespace namespace) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        examples.create("ex", Map.of("size", 1));
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-n", namespace.name(),
                ResumingTest.Handlers.class.getName())) {
            await().atMost(WAIT).until(() -> runner.output().contains("Creation is processed:"));
            assertThat(runner.output()).contains("Creation is processed: 1 succeeded; 0 failed.")
                    .doesNotContain("Handler 'resume' succeeded.");
            assertThat(examples.status("ex")).containsEntry("create", "created").doesNotContainKey("resume");
        }
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-n", namespace.name(),
                ResumingTest.Handlers.class.getName())) {
            await().atMost(WAIT).until(() -> runner.output().contains("Resuming is processed: 1 succeeded; 0 failed."));
        }
    }

    /** Every event of an object, by namespace; the create handler holds the object busy until released. */
    public static class EveryEvent {
        static final Map<String, List<Object>> SEEN = new ConcurrentHashMap<>();
        static final Map<String, CountDownLatch> RELEASE = new ConcurrentHashMap<>();

        @On.Create("kopfexamples")
        public void create(String namespace) throws InterruptedException {
            RELEASE.get(namespace).await(WAIT.toSeconds(), TimeUnit.SECONDS);
        }

        @On.Event("kopfexamples")
        public void event(Body body, String namespace) {
            Object step = body.get("spec") instanceof Map<?, ?> spec ? spec.get("step") : null;
            SEEN.computeIfAbsent(namespace, ns -> new CopyOnWriteArrayList<>()).add(step);
        }
    }

    @Test
    void eventHandlersSeeEveryEventInOrderWhileTheObjectIsBusy(LocalCluster cluster, TemporaryNamespace namespace) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        EveryEvent.RELEASE.put(namespace.name(), new CountDownLatch(1));
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-n", namespace.name(),
                EveryEvent.class.getName())) {
            examples.create("ex", Map.of("step", 0));
            await().atMost(WAIT).until(() -> EveryEvent.SEEN.containsKey(namespace.name()));
            for (int step = 1; step <= 5; step++) {
                examples.patch("ex", Map.of("spec", Map.of("step", step)));
            }
            EveryEvent.RELEASE.get(namespace.name()).countDown();
            await().atMost(WAIT).untilAsserted(() -> assertThat(EveryEvent.SEEN.get(namespace.name()))
                    .as("each of the five changes made while the create handler ran").containsSubsequence(0, 1, 2, 3, 4, 5));
        }
    }

    public static class OnlyNewValue {
        @On.Update(value = "kopfexamples", field = "spec.size", newValue = "3")
        public String grewToThree() {
            return "three";
        }
    }

    @Test
    void fieldChangeFiltersAreNotPartOfThePrematch(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(OnlyNewValue.class)) {
            examples.create("ex", Map.of("size", 1));
            await("the object is served (not stealth): its creation stores a diff-base").atMost(WAIT)
                    .until(() -> examples.annotations("ex").containsKey("kopf.zalando.org/last-handled-configuration"));
            examples.patch("ex", Map.of("spec", Map.of("size", 3)));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex"))
                    .containsEntry("grewToThree/spec.size", "three"));
        }
    }

    public static class AbsentField {
        static final Map<String, List<Object>> SEEN = new ConcurrentHashMap<>();

        @On.Event(value = "kopfexamples", field = "spec.field", fieldValue = Filter.ABSENT)
        public void withoutField(Body body, String namespace) {
            SEEN.computeIfAbsent(namespace, ns -> new CopyOnWriteArrayList<>()).add(((Map<?, ?>) body.get("spec")).get("size"));
        }
    }

    @Test
    void anEventHandlersAbsentFilterLooksAtTheBody(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(AbsentField.class)) {
            examples.create("ex", Map.of("size", 1, "field", "present"));
            examples.patch("ex", Map.of("spec", Map.of("size", 2, "field", "still")));
            Map<String, Object> removal = new java.util.HashMap<>();
            removal.put("size", 3);
            removal.put("field", null);
            examples.patch("ex", Map.of("spec", removal));
            await().atMost(WAIT).until(() -> AbsentField.SEEN.containsKey(namespace.name()));
            assertThat(AbsentField.SEEN.get(namespace.name())).as("the earlier events, with the field, were processed first")
                    .containsExactly(3);
        }
    }

    public static class FailingProcessing {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.queueing.errorDelays = List.of(Duration.ofSeconds(1));
            settings.persistence.diffbaseStorage = StorageDown.around(settings.persistence.diffbaseStorage);
        }

        @On.Create("kopfexamples")
        public String create() {
            return "created";
        }
    }

    @Test
    void throttlingWaitsForTheNextEventInsteadOfRepeatingTheFailedOne(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(FailingProcessing.class)) {
            examples.create("ex", Map.of("size", 1), Map.of(StorageDown.MARKER, "yes"));
            await().atMost(WAIT).until(() -> runner.output().contains("Throttling is over. Switching back to normal operations."));
            Map<String, Object> healed = new java.util.HashMap<>();
            healed.put(StorageDown.MARKER, null);
            examples.patch("ex", Map.of("metadata", Map.of("annotations", healed)));
            await("the healed object is handled").atMost(WAIT).until(() -> "created".equals(examples.status("ex").get("create")));
            assertThat(count(runner.output(), "Throttling for 1 seconds due to an unexpected error"))
                    .as("the failed event is not processed again after the throttling").isEqualTo(1);
        }
    }

    public static class CreateAndDelete {
        @On.Create("kopfexamples")
        public String create() {
            return "created";
        }

        @On.Delete("kopfexamples")
        public void delete() {
        }
    }

    @Test
    void aHandlingCycleLogsKopfsLines(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(CreateAndDelete.class)) {
            await().atMost(WAIT).until(() -> runner.output().contains("Client is configured"));
            examples.create("ex", Map.of("size", 1));
            await().atMost(WAIT).until(() -> runner.output().contains("Handling cycle is finished, waiting for new changes."));
            examples.delete("ex");
            await().atMost(WAIT).until(() -> runner.output().contains("Deleted, really deleted, and we are notified."));
            String prefix = "[" + namespace.name() + "/ex] ";
            assertThat(runner.output())
                    .contains(prefix + "Merge-patching the resource with: {'metadata': {'annotations': {")
                    .contains(prefix + "Merge-patching the status with: {'status': {'create': 'created'}}")
                    .contains(prefix + "JSON-patching the resource with: [{'op': 'test', 'path': '/metadata/resourceVersion'");
            assertThat(count(runner.output(), prefix + "Removing the finalizer")).isEqualTo(1);
            // Cycles that patched something end with the patch; only the quiet ones are "finished".
            String[] lines = runner.output().lines().filter(line -> line.contains(prefix)).toArray(String[]::new);
            for (int i = 1; i < lines.length; i++) {
                if (lines[i].contains("Handling cycle is finished")) {
                    assertThat(lines[i - 1]).doesNotContain("-patching the");
                }
            }
        }
    }

    @Test
    void theStartAndTheWatchStreamLogKopfsLines(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (KopfRunner runner = fixture.run(CreateAndDelete.class)) {
            await().atMost(WAIT).until(() -> runner.output().contains("Starting the watch-stream for customresourcedefinitions"));
            assertThat(runner.output())
                    .contains("Starting Kopf " + Versions.kopf4j().orElse("(unknown version)") + ".")
                    .contains("Starting the watch-stream for kopfexamples.v1.kopf.dev in '" + namespace.name() + "'.")
                    .as("the observer's, for CRDs appearing").contains(
                            "Starting the watch-stream for customresourcedefinitions.v1.apiextensions.k8s.io cluster-wide.");
        }
    }

    /** Deletes its own object, which no finalizer holds (no delete handlers): the patch of its results meets a 404. */
    public static class DeletesItself {
        @On.Create("kopfexamples")
        public String create(KubernetesClient client, String namespace, String name) {
            new KopfExamples(client, namespace, "kopf.dev/v1", "KopfExample").delete(name);
            return "created";
        }
    }

    @Test
    void aPatchOfAnObjectDeletedMeanwhileIsSkippedWithKopfsLine(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (KopfRunner runner = fixture.run(DeletesItself.class)) {
            fixture.examples().create("ex", Map.of("size", 1));
            await().atMost(WAIT).until(() -> runner.output().contains(fixture.about("ex") + "Handler 'create' succeeded."));
            await().atMost(WAIT).until(() -> runner.output().contains(
                    fixture.about("ex") + "Patching was skipped: the object does not exist anymore."));
        }
    }

    /** Changes each object once when it is first seen, before its finalizer is added from the body seen. */
    public static class ChangedWhileProcessed {
        @On.Event("kopfexamples")
        public void change(KubernetesClient client, String namespace, String name, Map<String, String> labels) {
            if (!labels.containsKey("changed")) {
                new KopfExamples(client, namespace, "kopf.dev/v1", "KopfExample")
                        .patch(name, Map.of("metadata", Map.of("labels", Map.of("changed", "yes"))));
            }
        }
    }

    @Test
    void aPatchThatMeetsANewerObjectIsLeftForTheNextCycleWithKopfsLine(LocalCluster cluster, TemporaryNamespace namespace)
            throws InterruptedException {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (CapturedLogs lines = new CapturedLogs("kopf.objects");
             io.kopf4j.Operator operator = fixture.start(fixture.operator().handlers(CreateAndDelete.class, ChangedWhileProcessed.class))) {
            examples.create("ex", Map.of("size", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex")).containsEntry("create", "created"));
            assertThat(lines.messages()).anyMatch(line -> line.matches(Pattern.quote(fixture.about("ex")
                    + "Could not apply the patch in full due to conflicts with newer changes. Will try on the next cycle soon."
                    + " Remaining: Patch(fns=[functools.partial(<function block_deletion at 0x")
                    + "[0-9a-f]+" + Pattern.quote(">, finalizer='kopf.zalando.org/KopfFinalizerMarker')])")));
            assertThat(examples.finalizers("ex")).as("added in the next cycle").contains(KopfExamples.FINALIZER);
        }
    }

    @Test
    void finalizersOfObjectsRelabelledOutOfTheFiltersWhileDownAreReleased(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(LabelFilteredObjectsTest.Finalized.class)) {
            examples.create("ex", Map.of("size", 1));
            examples.patch("ex", Map.of("metadata", Map.of("labels", Map.of("app", "web"))));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex")).containsEntry("create", "created"));
            assertThat(examples.finalizers("ex")).contains("kopf.zalando.org/KopfFinalizerMarker");
        }
        examples.patch("ex", Map.of("metadata", Map.of("labels", Map.of("app", "db"))));
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-n", namespace.name(),
                LabelFilteredObjectsTest.Finalized.class.getName())) {
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.finalizers("ex")).isNullOrEmpty());
        }
        examples.delete("ex");
        await().atMost(WAIT).until(() -> !examples.exists("ex"));
    }

    public static class ThrowingErrors {
        @On.Create("kopfexamples")
        public void annotated() {
            throw new AssertionError("an annotated handler's Error");
        }
    }

    @Test
    void javaErrorsFromHandlersAreRecordedWithTheirOwnMessages(LocalCluster cluster, TemporaryNamespace namespace)
            throws InterruptedException {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (io.kopf4j.Operator operator = fixture.start(fixture.operator().handlers(ThrowingErrors.class)
                .handler(io.kopf4j.Handler.create("kopfexamples").id("lambda").handle(context -> {
                    throw new NoClassDefFoundError("a lambda's Error");
                })))) {
            fixture.examples().create("ex", Map.of("size", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().annotations("ex"))
                    .hasEntrySatisfying("kopf.zalando.org/annotated", record -> assertThat(record)
                            .contains("\"retries\":1").contains("\"message\":\"an annotated handler's Error\""))
                    .hasEntrySatisfying("kopf.zalando.org/lambda", record -> assertThat(record)
                            .contains("\"retries\":1").contains("\"message\":\"a lambda's Error\"")));
        }
    }

    /** Recurses without end for objects annotated {@code deep}: a StackOverflowError, as a buggy handler's. */
    public static class Recursing {
        static int depth(int level) {
            return depth(level + 1) + 1;
        }

        @On.Create(value = "kopfexamples", annotations = "deep", backoff = 1)
        public void deep() {
            depth(0);
        }

        @On.Create(value = "kopfexamples", annotations = "!deep")
        public String shallow() {
            return "served";
        }

        @On.Update(value = "kopfexamples", when = RecursingFilter.class)
        public void never() {
        }
    }

    /** A filter callback that recurses for objects annotated {@code deepfilter}. */
    public static class RecursingFilter implements Filter {
        @Override
        public boolean test(io.kopf4j.HandlerContext context) {
            return context.annotations().containsKey("deepfilter") && Recursing.depth(0) > 0;
        }
    }

    @Test
    void aStackOverflowInAHandlerOrAFilterFailsOnlyItsObject(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Recursing.class)) {
            examples.create("deep", Map.of("size", 1), Map.of("deep", "yes"));
            // Retried per the handler's errors mode (temporary, every second), the failure stored as Kopf's:
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.annotations("deep"))
                    .hasEntrySatisfying("kopf.zalando.org/deep", record -> assertThat(record)
                            .contains("\"retries\":3").contains("\"success\":false")));
            assertThat(runner.output()).contains(fixture.about("deep")
                    + "Handler 'deep' failed with an exception and will try again in 1 second");
            examples.create("ok", Map.of("size", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ok")).containsEntry("shallow", "served"));
            // A filter's callback is the processing's (it is pre-matched at every event), not a handler's:
            // Kopf's throttling of that object, while the others go on.
            examples.create("filtered", Map.of("size", 1), Map.of("deepfilter", "yes"));
            await().atMost(WAIT).until(() -> runner.output().contains(fixture.about("filtered")
                    + "Throttling for 1 seconds due to an unexpected error: java.lang.StackOverflowError"));
            examples.create("after", Map.of("size", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("after")).containsEntry("shallow", "served"));
            assertThat(runner.output()).doesNotContain("unrecoverable").doesNotContain("The operator stops");
        }
    }

    @Test
    void anOutOfMemoryErrorStopsTheOperatorWithOneLineNamingTheSetting(LocalCluster cluster, TemporaryNamespace namespace)
            throws InterruptedException {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (io.kopf4j.Operator operator = fixture.start(fixture.operator()
                .handler(io.kopf4j.Handler.create("kopfexamples").id("hungry").handle(context -> {
                    throw new OutOfMemoryError("Java heap space");
                })))) {
            fixture.examples().create("ex", Map.of("size", 1));
            await().atMost(WAIT).until(() -> operator.failure().isPresent());
            assertThat(operator.failure().get()).hasMessageStartingWith("Out of memory (Java heap space) with a maximum heap of ")
                    .hasMessageContaining("-XX:MaxRAMPercentage=").hasRootCauseInstanceOf(OutOfMemoryError.class);
        }
    }
}
