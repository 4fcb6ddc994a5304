package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Body;
import io.kopf4j.On;
import io.kopf4j.Patch;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The seed's Database operator in small, as a new user writes it: a typed spec, the operator's client
 * creating an owned StatefulSet, and an event handler on the StatefulSets that reads them typed and
 * reports their readiness on the owner. The local cluster has no kubelet, so the test sets the
 * StatefulSet's Pods ready as their node would, and the StatefulSet controller reports them.
 */
@ExtendWith(LocalClusterExtension.class)
class StatefulChildTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** The parent's spec, typed. */
    public record DatabaseSpec(int size, String image) {
    }

    /** What the parent's status tells of its StatefulSet. */
    public record DatabaseStatus(String statefulSet, int readyReplicas) {
    }

    public static class Handlers {
        @On.Create("kopfexamples")
        public void create(DatabaseSpec spec, Body body, KubernetesClient client, Patch patch) {
            StatefulSet set = new StatefulSetBuilder()
                    .withNewMetadata().withName(body.meta().name() + "-db").withNamespace(body.meta().namespace())
                    .withLabels(Map.of("database", body.meta().name()))
                    .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(body.apiVersion())
                            .withKind(body.kind()).withName(body.meta().name()).withUid(body.meta().uid())
                            .withController(true).withBlockOwnerDeletion(true).build())
                    .endMetadata()
                    .withNewSpec().withReplicas(spec.size()).withServiceName(body.meta().name())
                    .withNewSelector().withMatchLabels(Map.of("database", body.meta().name())).endSelector()
                    .withNewTemplate().withNewMetadata().withLabels(Map.of("database", body.meta().name())).endMetadata()
                    .withNewSpec().addNewContainer().withName("db").withImage(spec.image()).endContainer().endSpec()
                    .endTemplate().endSpec().build();
            client.apps().statefulSets().inNamespace(body.meta().namespace()).resource(set).create();
            patch.status(new DatabaseStatus(set.getMetadata().getName(), 0));
        }

        @On.Event(value = "statefulsets.apps", labels = "database")
        public void ready(StatefulSet set, KubernetesClient client) {
            Integer ready = set.getStatus() == null ? null : set.getStatus().getReadyReplicas();
            if (ready != null) {
                String owner = set.getMetadata().getLabels().get("database");
                client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(set.getMetadata().getNamespace())
                        .withName(owner).subresource("status").patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                                "{\"status\":{\"readyReplicas\":" + ready + "}}");
            }
        }
    }

    @Test
    void aDatabaseOwnsItsStatefulSetAndReportsItsReadiness(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            fixture.examples().create("orders", Map.of("size", 3, "image", "postgres:16"));
            await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("orders"))
                    .containsEntry("statefulSet", "orders-db").containsEntry("readyReplicas", 0));
            StatefulSet set = cluster.client().apps().statefulSets().inNamespace(namespace.name()).withName("orders-db").get();
            assertThat(set.getSpec().getReplicas()).isEqualTo(3);
            assertThat(set.getMetadata().getOwnerReferences()).singleElement()
                    .satisfies(owner -> assertThat(owner.getUid()).isEqualTo(fixture.examples().get("orders").getMetadata().getUid()));

            cluster.readyPods(namespace.name(), Map.of("database", "orders"), 3);   // the StatefulSet controller counts them
            await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("orders"))
                    .containsEntry("readyReplicas", 3));
        }
    }
}
