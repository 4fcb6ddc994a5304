package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.kits.Readiness;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code kits.Readiness} of a Deployment as the local cluster's controllers write its status: not
 * ready while its Pod is Pending, ready once the Pod is (as its node would say).
 */
@ExtendWith(LocalClusterExtension.class)
class ReadinessTest {
    @Test
    void aDeploymentIsReadyOnceItsPodsAre(LocalCluster cluster, TemporaryNamespace namespace) {
        var deployments = cluster.client().apps().deployments().inNamespace(namespace.name());
        deployments.resource(new DeploymentBuilder().withNewMetadata().withName("web").endMetadata()
                .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", "web").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
                .withNewSpec().addNewContainer().withName("web").withImage("nginx").endContainer().endSpec().endTemplate()
                .endSpec().build()).create();
        // The controllers have seen it (its ReplicaSet made the Pod), which stays Pending: not ready.
        await().atMost(Duration.ofSeconds(60)).until(() -> !cluster.client().pods().inNamespace(namespace.name())
                .withLabel("app", "web").list().getItems().isEmpty());
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(Readiness.of(deployments.withName("web").get()))
                .isEqualTo(new Readiness(false, false, "Progressing", "Available: 0/1")));

        cluster.readyPods(namespace.name(), Map.of("app", "web"), 1);
        await().atMost(Duration.ofSeconds(60)).until(() -> Readiness.of(deployments.withName("web").get()).ready());
    }
}
