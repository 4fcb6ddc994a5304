package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.testing.KopfHarness;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.KopfTest;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An object whose processing fails unexpectedly is logged and throttled on its own, never crashing the operator. */
@KopfTest(scope = KopfTest.Scope.METHOD, crds = "../examples/crd.yaml", handlers = ThrottlingTest.Handlers.class)
class ThrottlingTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    public static class Handlers {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.persistence.diffbaseStorage = StorageDown.around(settings.persistence.diffbaseStorage);
        }

        @On.Create("kopfexamples")
        public String create() {
            return "created";
        }
    }

    @Test
    void aMalformedObjectIsThrottledAloneAndHandledOnceFixed(KopfHarness kopf, KopfRunner runner) {
        OperatorFixture fixture = new OperatorFixture(kopf);
        KopfExamples examples = fixture.examples();
        examples.create("corrupt", Map.of("a", 1), Map.of(StorageDown.MARKER, "yes"));
        examples.create("healthy", Map.of("a", 1));
        await().atMost(WAIT).until(() -> runner.output().contains(fixture.about("corrupt")
                + "Throttling for 1 seconds due to an unexpected error: " + StorageDown.ERROR));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("healthy")).containsEntry("create", "created"));
        assertThat(runner.isRunning()).isTrue();

        Map<String, Object> fix = new HashMap<>();
        fix.put(StorageDown.MARKER, null);
        examples.patch("corrupt", Map.of("metadata", Map.of("annotations", fix)));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("corrupt")).containsEntry("create", "created"));
    }
}
