package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Label filters shared by all handlers are applied by the API server, with Kopf's semantics kept. */
@ExtendWith(LocalClusterExtension.class)
class LabelSelectorTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    public static class Handlers {
        @On.Create(value = "kopfexamples", labels = "app=web")
        public String create() {
            return "created";
        }

        @On.Delete(value = "kopfexamples", labels = "app=web")
        public void delete() {
        }
    }

    @Test
    void theServerSelectsAndObjectsLeavingTheSelectionAreReleased(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            assertThat(runner.output()).contains("Watching kopfexamples.v1.kopf.dev in " + namespace.name() + " with labels app=web");
            examples.create("ex", Map.of("a", 1));
            examples.patch("ex", Map.of("metadata", Map.of("labels", Map.of("app", "web"))));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(examples.finalizers("ex")).contains(KopfExamples.FINALIZER);
                assertThat(examples.status("ex")).containsEntry("create", "created");
            });

            Map<String, Object> unlabel = new HashMap<>();
            unlabel.put("app", null);
            examples.patch("ex", Map.of("metadata", Map.of("labels", unlabel)));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.finalizers("ex")).doesNotContain(KopfExamples.FINALIZER));
            assertThat(runner.output()).contains("Removing the finalizer, as there are no handlers requiring it.");
        }
    }
}
