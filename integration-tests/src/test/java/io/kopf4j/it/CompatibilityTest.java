package io.kopf4j.it;

import static io.kopf4j.it.KopfExamples.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Diff;
import io.kopf4j.On;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Golden compatibility: objects carrying state written by Kopf, in the formats Kopf documents, are
 * recognised: finished handlers are not run again, unfinished ones continue where Kopf left them.
 */
@ExtendWith(LocalClusterExtension.class)
class CompatibilityTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    public static class Handlers {
        @On.Create("kopfexamples")
        public String create_fn() {
            return "from kopf4j";
        }

        @On.Create("kopfexamples")
        public String second_fn(int retry) {
            return "retry " + retry;
        }

        @On.Update("kopfexamples")
        public String update_fn(Diff diff) {
            return diff.toString();
        }
    }

    @Test
    void anObjectFullyHandledByKopfIsNotHandledAgain(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        // Kopf's diff-base: compact JSON of the essence, keys in Kopf's order, a trailing newline.
        examples.create("handled", Map.of("duration", "1m", "field", "value"), Map.of(
                "someannotation", "somevalue",
                "kopf.zalando.org/last-handled-configuration",
                "{\"spec\":{\"duration\":\"1m\",\"field\":\"value\"},\"metadata\":{\"annotations\":{\"someannotation\":\"somevalue\"}}}\n"));
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            // The object handled by this process has the one change since Kopf's diff-base, and that alone:
            // had the diff-base been misread, the listing would have been a creation or an update of its own.
            examples.patch("handled", Map.of("spec", Map.of("field", "changed")));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("handled"))
                    .containsEntry("update_fn", "[[\"change\",[\"spec\",\"field\"],\"value\",\"changed\"]]"));
            assertThat(count(runner.output(), fixture.about("handled") + "Handler 'update_fn' succeeded.")).isEqualTo(1);
            assertThat(runner.output()).doesNotContain("Handler 'create_fn'").doesNotContain("Creation is");
            assertThat(examples.status("handled")).doesNotContainKeys("create_fn", "second_fn");
        }
    }

    @Test
    void aCreationInterruptedInKopfContinuesWhereItStopped(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        // Kopf's progress records (kopf-features.md §1.19 and §3): create_fn done, second_fn failed once.
        examples.create("midway", Map.of("a", 1), Map.of(
                "kopf.zalando.org/create_fn", "{\"started\":\"2020-12-31T23:59:59.123456+00:00\","
                        + "\"stopped\":\"2020-12-31T23:59:59.223456+00:00\",\"purpose\":\"create\",\"retries\":1,"
                        + "\"success\":true,\"failure\":false}",
                "kopf.zalando.org/second_fn", "{\"started\":\"2020-12-31T23:59:59.123456+00:00\","
                        + "\"delayed\":\"2021-01-01T00:00:59.123456+00:00\",\"purpose\":\"create\",\"retries\":1,"
                        + "\"success\":false,\"failure\":false,\"message\":\"not ready\"}"));
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            // The summary comes after every handler of the creation: create_fn would have run before it.
            await().atMost(WAIT).until(() -> runner.output().contains("Creation is processed: 2 succeeded; 0 failed."));
            assertThat(runner.output()).doesNotContain("Handler 'create_fn'").contains("Handler 'second_fn' succeeded.");
            // The diff-base is stored once the creation is done: by then every result is in the status.
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.annotations("midway"))
                    .doesNotContainKeys("kopf.zalando.org/create_fn", "kopf.zalando.org/second_fn")
                    .containsEntry("kopf.zalando.org/last-handled-configuration", "{\"spec\":{\"a\":1}}\n"));
            assertThat(examples.status("midway")).containsEntry("second_fn", "retry 1").doesNotContainKey("create_fn");
        }
    }

    @Test
    void progressStoredByOlderKopfInStatusIsRead(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        examples.create("old", Map.of("a", 1));
        examples.patchStatus("old", Map.of("kopf", Map.of("progress", Map.of("create_fn", Map.of(
                "started", "2020-12-31T23:59:59.123456", "stopped", "2020-12-31T23:59:59.123456",
                "retries", 1, "success", true)))));
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            await().atMost(WAIT).until(() -> runner.output().contains("Creation is processed: 2 succeeded; 0 failed."));
            assertThat(runner.output()).doesNotContain("Handler 'create_fn'");
            // Handlers run one per cycle, create_fn first: had it run again, its result would be there before second_fn's.
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("old")).containsKey("second_fn"));
            assertThat(examples.status("old")).doesNotContainKey("create_fn");
        }
    }
}
