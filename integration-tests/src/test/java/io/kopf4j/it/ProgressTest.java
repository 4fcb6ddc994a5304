package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.PermanentError;
import io.kopf4j.TemporaryError;
import io.kopf4j.testing.KopfHarness;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.KopfTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Several handlers of one change: Kopf's asap lifecycle, progress records, retries and failures. */
@KopfTest(scope = KopfTest.Scope.METHOD, crds = "../examples/crd.yaml", handlers = ProgressTest.Handlers.class)
class ProgressTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    static final List<String> PROGRESS_SEEN = new CopyOnWriteArrayList<>();

    public static class Handlers {
        @On.Create("kopfexamples")
        public String first() {
            return "done";
        }

        @On.Create(value = "kopfexamples", backoff = 1)
        public String flaky(int retry) {
            if (retry < 2) {
                throw new IllegalStateException("not yet");
            }
            return "ok after " + retry;
        }

        @On.Create("kopfexamples")
        public String temporary(int retry) {
            if (retry == 0) {
                throw new TemporaryError("wait a second", Duration.ofSeconds(1));
            }
            return "ok";
        }

        @On.Create("kopfexamples")
        public String permanent() {
            throw new PermanentError("never");
        }
    }

    @Test
    void handlersProgressOnePerCycleWithKopfRecordsThenArePurged(KopfHarness kopf, KopfRunner runner) {
        OperatorFixture fixture = new OperatorFixture(kopf);
        KopfExamples examples = fixture.examples();
        examples.create("ex", Map.of("a", 1));
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> {
            String record = examples.annotations("ex").get("kopf.zalando.org/flaky");
            if (record != null) {
                PROGRESS_SEEN.add(record);
            }
            return runner.output().contains("Creation is processed: 3 succeeded; 1 failed.");
        });
        assertThat(PROGRESS_SEEN).anySatisfy(record -> assertThat(record).matches(
                "\\{\"started\":\"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}\\+00:00\",\"delayed\":\"[^\"]+\\+00:00\","
                        + "\"purpose\":\"create\",\"retries\":[12],\"success\":false,\"failure\":false,\"message\":\"not yet\"}"));
        assertThat(runner.output()).contains("Sleeping for ", " seconds for the delayed handlers.",
                "Merge-patching the resource with: {'metadata': {'annotations': {'kopf.zalando.org/touch-dummy': '");
        assertThat(runner.output()).contains("Handler 'flaky' failed with an exception and will try again in 1 seconds: ",
                "Handler 'temporary' failed temporarily: wait a second", "Handler 'permanent' failed permanently: never");

        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex"))
                .containsEntry("first", "done").containsEntry("flaky", "ok after 2").containsEntry("temporary", "ok")
                .doesNotContainKey("permanent"));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.annotations("ex").keySet())
                .filteredOn(key -> key.startsWith("kopf.zalando.org/"))
                .containsExactly("kopf.zalando.org/last-handled-configuration"));
    }
}
