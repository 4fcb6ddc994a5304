package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Filter;
import io.kopf4j.HandlerContext;
import io.kopf4j.On;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;

/** Filters decide which objects handlers see; objects no handler is for are left without a trace. */
@ExtendWith(LocalClusterExtension.class)
class FiltersTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    public static class Big implements Filter {
        public boolean test(HandlerContext context) {
            return context.spec().get("size") instanceof Number size && size.intValue() >= 10;
        }
    }

    public static class Handlers {
        @On.Create(value = "kopfexamples", labels = "app=web")
        public String create() {
            return "created";
        }

        @On.Update(value = "kopfexamples", labels = "app=web", field = "spec.size", oldValue = "1", newValue = "2")
        public String grew() {
            return "from one to two";
        }

        @On.Update(value = "kopfexamples", labels = "app=web", when = Big.class)
        public String big() {
            return "big";
        }

        @On.Event("kopfexamples")
        public void event(String type, String name, Logger logger) {
            logger.info("Event {} for {}", type, name);
        }
    }

    @Test
    void labelsFieldValuesAndPredicatesSelectHandlers(LocalCluster cluster, TemporaryNamespace namespace) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-v", "-n", namespace.name(),
                Handlers.class.getName())) {
            examples.create("plain", Map.of("size", 1));
            examples.patch("plain", Map.of("spec", Map.of("size", 2)));
            await().atMost(WAIT).until(() -> runner.output().contains("Event MODIFIED for plain"));
            assertThat(examples.annotations("plain").keySet()).noneMatch(key -> key.startsWith("kopf.zalando.org/"));
            assertThat(examples.finalizers("plain")).isEmpty();
            assertThat(runner.output()).doesNotContain("[" + namespace.name() + "/plain] Handling cycle");

            examples.patch("plain", Map.of("metadata", Map.of("labels", Map.of("app", "web"))));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("plain")).containsEntry("create", "created"));
            assertThat(runner.output()).as("starting to match is a creation").contains("[" + namespace.name()
                    + "/plain] Creation is processed: 1 succeeded; 0 failed.");

            examples.patch("plain", Map.of("spec", Map.of("size", 1)));
            await().atMost(WAIT).until(() -> examples.annotations("plain")
                    .getOrDefault("kopf.zalando.org/last-handled-configuration", "").contains("\"size\":1"));
            examples.patch("plain", Map.of("spec", Map.of("size", 2)));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("plain")).containsEntry("grew/spec.size", "from one to two"));
            assertThat(examples.status("plain")).doesNotContainKey("big");

            examples.patch("plain", Map.of("spec", Map.of("size", 12)));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("plain")).containsEntry("big", "big"));
        }
    }
}
