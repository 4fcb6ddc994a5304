package io.kopf4j.internal.engines.children;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.kopf4j.Resource;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.internal.clients.ApiRequest;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.engines.permissions.ApiCatalog;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * The children's writes on a real API server with its controllers: an applied Deployment is seen as
 * unchanged from its managedFields after the controllers and the defaults wrote theirs, a second
 * apply of the same is a no-op (the same resourceVersion), a changed image is a change, and a
 * deletion on the uid's precondition deletes. (On the branch: the engine's first pieces, before the
 * engine runs them.)
 */
@ExtendWith(LocalClusterExtension.class)
class ChildWritesTest {
    private static Deployment deployment(String image) {
        return new DeploymentBuilder().withNewMetadata().withName("web").endMetadata()
                .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", "web").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
                .withNewSpec().addNewContainer().withName("web").withImage(image).addNewPort().withContainerPort(80)
                .withProtocol("TCP").endPort().endContainer().endSpec().endTemplate().endSpec().build();
    }

    @Test
    void anAppliedChildIsUnchangedAtRestAndChangedWhenDeclaredOtherwise(LocalCluster cluster, TemporaryNamespace namespace) {
        var client = cluster.client();
        var owner = client.configMaps().inNamespace(namespace.name())
                .resource(new ConfigMapBuilder().withNewMetadata().withName("owner").endMetadata().build()).create();
        Map<String, Object> parent = Map.of("apiVersion", "v1", "kind", "ConfigMap", "metadata",
                Map.of("name", "owner", "namespace", namespace.name(), "uid", owner.getMetadata().getUid()));
        Resource deployments = ApiCatalog.live(client).resolve("deployments.apps");
        ChildWrites writes = new ChildWrites(client, ApiRetries.NONE, "kopf4j");
        var logger = LoggerFactory.getLogger(ChildWritesTest.class);

        DesiredChildren.Child child = DesiredChildren.of(deployment("nginx:1"), parent, "kopf4j", "children", Set.of("apps/Deployment")).get(0);
        Map<String, Object> applied = writes.apply(deployments, child, logger);
        assertThat(OwnedFields.unchanged(child.body(), applied, "kopf4j")).isTrue();

        // The controllers write the status, the defaults fill the spec: still unchanged for what kopf4j owns.
        await().atMost(Duration.ofSeconds(60)).until(() -> client.apps().deployments().inNamespace(namespace.name())
                .withName("web").get().getStatus() != null);
        Map<String, Object> live = ApiRequest.object(client, deployments, namespace.name(), "web").get();
        assertThat(OwnedFields.unchanged(child.body(), live, "kopf4j")).isTrue();
        String version = ((Map<?, ?>) live.get("metadata")).get("resourceVersion").toString();
        Map<String, Object> again = writes.apply(deployments, child, logger);
        assertThat(((Map<?, ?>) again.get("metadata")).get("resourceVersion")).as("a second apply of the same is a no-op")
                .isEqualTo(version);

        DesiredChildren.Child changed = DesiredChildren.of(deployment("nginx:2"), parent, "kopf4j", "children", Set.of("apps/Deployment")).get(0);
        assertThat(OwnedFields.unchanged(changed.body(), live, "kopf4j")).isFalse();

        String uid = ((Map<?, ?>) live.get("metadata")).get("uid").toString();
        assertThat(writes.delete(deployments, namespace.name(), "web", "not-" + uid, logger)).as("another uid: kept").isFalse();
        assertThat(writes.delete(deployments, namespace.name(), "web", uid, logger)).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> client.apps().deployments().inNamespace(namespace.name())
                .withName("web").get() == null);
        assertThat(List.of(writes.delete(deployments, namespace.name(), "web", uid, logger))).containsExactly(false);
    }
}
