package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.Patch;
import io.kopf4j.testing.KopfHarness;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.KopfTest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Handlers that take the spec and status as records, and write the status with records, on the real API server. */
@KopfTest(scope = KopfTest.Scope.METHOD, crds = "../examples/crd.yaml", handlers = TypedHandlersTest.Handlers.class)
class TypedHandlersTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    public record ExampleSpec(int size, String image) {
    }

    public record ExampleStatus(String phase, int replicas) {
    }

    public record Summary(String message, int doubled) {
    }

    public static class Handlers {
        @On.Create("kopfexamples")
        public Summary create(ExampleSpec spec, Patch patch) {
            patch.status(new ExampleStatus("Ready", spec.size()));
            return new Summary("created with " + spec.image(), spec.size() * 2);
        }

        @On.Update(value = "kopfexamples", field = "spec.size")
        public void resize(ExampleSpec spec, ExampleStatus status, Patch patch) {
            patch.status(new ExampleStatus("Resized from " + status.replicas(), spec.size()));
        }
    }

    @Test
    void recordsAreReadFromTheSpecAndStatusAndWrittenToTheStatus(KopfHarness kopf, KopfRunner runner) {
        OperatorFixture fixture = new OperatorFixture(kopf);
        KopfExamples examples = fixture.examples();
        examples.create("typed", Map.of("size", 3, "image", "nginx", "unknown", "ignored"));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("typed"))
                .containsEntry("phase", "Ready").containsEntry("replicas", 3)
                .containsEntry("create", Map.of("message", "created with nginx", "doubled", 6)));

        examples.patch("typed", Map.of("spec", Map.of("size", 5)));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("typed"))
                .containsEntry("phase", "Resized from 3").containsEntry("replicas", 5));
    }
}
