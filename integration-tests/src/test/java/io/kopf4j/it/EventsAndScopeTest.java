package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.Resource;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;

/** Event handlers see every raw event; objects outside the served namespaces are left untouched. */
@ExtendWith(LocalClusterExtension.class)
class EventsAndScopeTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    public static class Handlers {
        @On.Event("kopfexamples")
        public void event(String type, Map<String, Object> event, String name, Logger logger) {
            logger.info("Event {} for {} (has object: {})", type, name, event.get("object") != null);
        }

        @On.Delete("kopfexamples")
        public void delete() {
        }

        @On.Event({"kopf.dev", On.EVERYTHING})
        public void everything(String type, String name, Resource resource, Logger logger) {
            logger.info("Any {} event for {} of {}", type, name, resource.plural());
        }
    }

    @Test
    void eventHandlersSeeListingAndWatchEvents(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        examples.create("listed", Map.of("a", 1));
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            await().atMost(WAIT).until(() -> runner.output().contains("Event null for listed (has object: true)")
                    && runner.output().contains("Any null event for listed of kopfexamples"));
            examples.create("live", Map.of("a", 1));
            await().atMost(WAIT).until(() -> runner.output().contains("Event ADDED for live"));
            examples.patch("live", Map.of("spec", Map.of("a", 2)));
            await().atMost(WAIT).until(() -> runner.output().contains("Event MODIFIED for live"));
            examples.delete("live");
            await().atMost(WAIT).until(() -> runner.output().contains("Event DELETED for live"));
        }
    }

    @Test
    void objectsInOtherNamespacesAreUntouched(LocalCluster cluster, TemporaryNamespace served, TemporaryNamespace other) {
        OperatorFixture fixture = new OperatorFixture(cluster, served);
        KopfExamples inside = fixture.examples();
        KopfExamples outside = new KopfExamples(cluster, other.name());
        outside.create("outside", Map.of("a", 1));
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            assertThat(runner.output()).contains("Starting the watch-stream for kopfexamples.v1.kopf.dev in '" + served.name() + "'.");
            inside.create("inside", Map.of("a", 1));
            await().atMost(WAIT).until(() -> inside.finalizers("inside").contains(KopfExamples.FINALIZER));
            outside.patch("outside", Map.of("spec", Map.of("a", 2)));
            inside.delete("inside");
            // Handled to its end after the start's listing and after the change outside: a stream that carried
            // the object outside would have carried it before these events.
            await().atMost(WAIT).until(() -> !inside.exists("inside"));
            assertThat(outside.finalizers("outside")).isEmpty();
            assertThat(outside.annotations("outside").keySet()).noneMatch(key -> key.startsWith("kopf.zalando.org/"));
            assertThat(runner.output()).as("no stream for the other namespace, no event of its object")
                    .doesNotContain(other.name()).doesNotContain("for outside");
        }
    }
}
