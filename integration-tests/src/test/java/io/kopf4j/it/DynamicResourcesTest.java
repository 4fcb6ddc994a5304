package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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

/** Resources whose CRDs are installed or removed while the operator runs. */
@ExtendWith(LocalClusterExtension.class)
class DynamicResourcesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String GROUP = "late.example.com";

    public static class Handlers {
        @On.Create("latewidgets.late.example.com")
        public String create() {
            return "created";
        }
    }

    public static class Stuck {
        @On.Create("stuckwidgets.late.example.com")
        public String create(Logger logger) {
            logger.info("Stuck handler started");
            try {
                Thread.sleep(Duration.ofMinutes(1));
                return "finished";
            } catch (InterruptedException e) {
                logger.info("Stuck handler interrupted");
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }
    }

    private static void deleteCrd(LocalCluster cluster, String name) {
        cluster.client().apiextensions().v1().customResourceDefinitions().withName(name).delete();
    }

    @Test
    void aCrdInstalledAfterStartupIsServedAndDroppedWhenDeleted(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            assertThat(runner.output()).contains("Unresolved resources cannot be served (try creating their CRDs):"
                    + " Selector(group='late.example.com', any_name='latewidgets')");

            fixture.installCrd(GROUP, "latewidgets", "LateWidget", OperatorFixture.ANY_FIELDS);
            await().atMost(WAIT).until(() -> runner.output().contains("Resource latewidgets.v1.late.example.com is served now."));

            KopfExamples widgets = fixture.objects(GROUP + "/v1", "LateWidget");
            widgets.create("w1", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(widgets.status("w1")).isEqualTo(Map.of("create", "created")));

            deleteCrd(cluster, "latewidgets." + GROUP);
            await().atMost(WAIT).until(() -> runner.output().contains(
                    "Resource latewidgets.v1.late.example.com is not served any more; its watchers stop."));
        }
    }

    @Test
    void handlersOfAResourceThatIsGoneGetTheExitTimeoutThenAreInterrupted(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        fixture.installCrd(GROUP, "stuckwidgets", "StuckWidget", OperatorFixture.ANY_FIELDS);
        try (KopfRunner runner = fixture.run(Stuck.class)) {
            fixture.objects(GROUP + "/v1", "StuckWidget").create("w1", Map.of());
            await().atMost(WAIT).until(() -> runner.output().contains("Stuck handler started"));

            deleteCrd(cluster, "stuckwidgets." + GROUP);
            await().atMost(WAIT).until(() -> runner.output().contains("Stuck handler interrupted"));
            String output = runner.output();
            assertThat(output.indexOf("Resource stuckwidgets.v1.late.example.com is not served any more"))
                    .isNotNegative().isLessThan(output.indexOf("Stuck handler interrupted"));
        }
    }
}
