package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.ErrorsMode;
import io.kopf4j.On;
import io.kopf4j.TemporaryError;
import io.kopf4j.testing.KopfHarness;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.KopfTest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Errors modes, and the retries and timeout limits with Kopf's look-ahead. */
@KopfTest(scope = KopfTest.Scope.METHOD, crds = "../examples/crd.yaml", handlers = ErrorsTest.Handlers.class)
class ErrorsTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    public static class Handlers {
        @On.Create(value = "kopfexamples", errors = ErrorsMode.PERMANENT)
        public String permanentMode() {
            throw new IllegalStateException("no second chance");
        }

        @On.Create(value = "kopfexamples", errors = ErrorsMode.IGNORED)
        public String ignoredMode() {
            throw new IllegalStateException("never mind");
        }

        @On.Create(value = "kopfexamples", retries = 2, backoff = 0.1)
        public String limitedRetries() {
            throw new IllegalStateException("still failing");
        }

        @On.Create(value = "kopfexamples", timeout = 1)
        public String limitedTime() {
            throw new TemporaryError("come back later", Duration.ofSeconds(2));
        }

        /** Keeps the creation unfinished, so the other handlers' records stay on the object to be read. */
        @On.Create("kopfexamples")
        public String zzPending() {
            throw new TemporaryError("not now", Duration.ofMinutes(10));
        }
    }

    @Test
    void errorsEndAsKopfDecides(KopfHarness kopf, KopfRunner runner) {
        OperatorFixture fixture = new OperatorFixture(kopf);
        KopfExamples examples = fixture.examples();
        examples.create("ex", Map.of("a", 1));
        await().atMost(WAIT).untilAsserted(() -> assertThat(runner.output()).contains(
                "Handler 'zzPending' failed temporarily: not now",
                "Handler 'permanentMode' failed with an exception and will stop now: no second chance",
                "Handler 'ignoredMode' failed with an exception and will ignore it: never mind",
                "Handler 'limitedRetries' failed with an exception and will stop now (it would exceed 2 retries on the"
                        + " next attempt): still failing",
                "Handler 'limitedTime' failed temporarily but will time out after 1 seconds: come back later"));
        assertThat(runner.output()).as("a stack trace for arbitrary exceptions")
                .contains("java.lang.IllegalStateException: no second chance");
        await().atMost(WAIT).untilAsserted(() -> {
            Map<String, String> records = examples.annotations("ex");
            assertThat(records.get("kopf.zalando.org/permanentMode"))
                    .contains("\"retries\":1,\"success\":false,\"failure\":true,\"message\":\"no second chance\"");
            assertThat(records.get("kopf.zalando.org/ignoredMode")).contains("\"success\":true,\"failure\":false");
            assertThat(records.get("kopf.zalando.org/limitedRetries")).contains("\"retries\":2,\"success\":false,\"failure\":true");
            assertThat(records.get("kopf.zalando.org/limitedTime")).contains("\"failure\":true,\"message\":\"Handler 'limitedTime'"
                    + " failed temporarily but will time out after 1 seconds: come back later\"");
            assertThat(records.get("kopf.zalando.org/zzPending")).contains("\"delayed\":", "\"message\":\"not now\"");
        });
        assertThat(examples.status("ex")).as("failed handlers deliver no results").isEmpty();
    }
}
