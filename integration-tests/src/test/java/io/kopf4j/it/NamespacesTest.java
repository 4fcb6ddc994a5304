package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;

/** Namespace patterns: globs and negations, and namespaces created after the start. */
@ExtendWith(LocalClusterExtension.class)
class NamespacesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    public static class Handlers {
        @On.Create("kopfexamples")
        public String create() {
            return "created";
        }

        /** Namespaces are cluster-scoped: served cluster-wide whatever the namespace patterns. */
        @On.Event(value = "namespaces", param = "cluster-scoped")
        public void namespace(String name, Object param, Logger logger) {
            logger.info("Namespace {} seen as {}", name, param);
        }
    }

    @Test
    void namespacesMatchingAGlobArePickedUpWhenCreated(LocalCluster cluster) {
        String prefix = "globs" + UUID.randomUUID().toString().substring(0, 6);
        cluster.apply(KopfExamples.CRD);
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-v", "-n",
                prefix + "-*,!" + prefix + "-skip-*", Handlers.class.getName());
             TemporaryNamespace skipped = new TemporaryNamespace(cluster.client(), prefix + "-skip");
             TemporaryNamespace late = new TemporaryNamespace(cluster.client(), prefix + "-late")) {
            KopfExamples inSkipped = new KopfExamples(cluster, skipped.name());
            KopfExamples inLate = new KopfExamples(cluster, late.name());
            inSkipped.create("skipped", Map.of("a", 1));
            inLate.create("late", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(inLate.status("late")).containsEntry("create", "created"));
            // Namespaces are taken in the order of their events: the skipped one, created first, was
            // decided on before the late one got its watcher; had it matched, it would have one too.
            assertThat(runner.output()).contains("Starting the watch-stream for kopfexamples.v1.kopf.dev in '" + late.name() + "'.")
                    .doesNotContain("Starting the watch-stream for kopfexamples.v1.kopf.dev in '" + skipped.name() + "'.")
                    .contains("[default] Namespace default seen as cluster-scoped");
            assertThat(inSkipped.annotations("skipped").keySet()).noneMatch(key -> key.startsWith("kopf.zalando.org/"));
        }
    }
}
