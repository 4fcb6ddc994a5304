package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.kopf4j.On;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

/** Resources whose CRDs are installed or removed while the operator runs. */
@ExtendWith(LocalClusterExtension.class)
class DynamicResourcesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: latewidgets.late.example.com
            spec:
              group: late.example.com
              scope: Namespaced
              names: {plural: latewidgets, singular: latewidget, kind: LateWidget}
              versions:
              - name: v1
                served: true
                storage: true
                subresources: {status: {}}
                schema:
                  openAPIV3Schema:
                    type: object
                    x-kubernetes-preserve-unknown-fields: true
            """;

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

    @TempDir
    Path dir;

    @Test
    void aCrdInstalledAfterStartupIsServedAndDroppedWhenDeleted(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-n", namespace.name(), Handlers.class.getName())) {
            assertThat(runner.output()).contains("Unresolved resources cannot be served (try creating their CRDs): [late.example.com/latewidgets]");

            cluster.apply(Files.writeString(dir.resolve("crd.yaml"), CRD));
            await().atMost(WAIT).until(() -> runner.output().contains("Resource latewidgets.v1.late.example.com is served now."));

            var widgets = cluster.client().genericKubernetesResources("late.example.com/v1", "LateWidget").inNamespace(namespace.name());
            widgets.resource(new GenericKubernetesResourceBuilder().withApiVersion("late.example.com/v1").withKind("LateWidget")
                    .withNewMetadata().withName("w1").endMetadata().addToAdditionalProperties("spec", Map.of("a", 1)).build()).create();
            await().atMost(WAIT).untilAsserted(() -> assertThat(widgets.withName("w1").get().getAdditionalProperties().get("status"))
                    .isEqualTo(Map.of("create", "created")));

            cluster.client().apiextensions().v1().customResourceDefinitions().withName("latewidgets.late.example.com").delete();
            await().atMost(WAIT).until(() -> runner.output().contains(
                    "Resource latewidgets.v1.late.example.com is not served any more; its watchers stop."));
        }
    }

    @Test
    void handlersOfAResourceThatIsGoneGetTheExitTimeoutThenAreInterrupted(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        cluster.apply(Files.writeString(dir.resolve("crd.yaml"), CRD.replace("latewidget", "stuckwidget").replace("LateWidget", "StuckWidget")));
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-n", namespace.name(), Stuck.class.getName())) {
            var widgets = cluster.client().genericKubernetesResources("late.example.com/v1", "StuckWidget").inNamespace(namespace.name());
            widgets.resource(new GenericKubernetesResourceBuilder().withApiVersion("late.example.com/v1").withKind("StuckWidget")
                    .withNewMetadata().withName("w1").endMetadata().build()).create();
            await().atMost(WAIT).until(() -> runner.output().contains("Stuck handler started"));

            cluster.client().apiextensions().v1().customResourceDefinitions().withName("stuckwidgets.late.example.com").delete();
            await().atMost(WAIT).until(() -> runner.output().contains("Stuck handler interrupted"));
            String output = runner.output();
            assertThat(output.indexOf("Resource stuckwidgets.v1.late.example.com is not served any more"))
                    .isNotNegative().isLessThan(output.indexOf("Stuck handler interrupted"));
        }
    }
}
