package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Body;
import io.kopf4j.On;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.kits.Hierarchies;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The hierarchies toolkit in an operator, on a real API server: a create handler makes children of
 * every form (a typed Pod and StatefulSet, a ConfigMap as plain maps, a Secret as a
 * GenericKubernetesResource) the handled object's own, and creates them with its client. The test
 * checks what the API server stored (owner references, names, namespaces, labels); the cascading
 * deletion is the garbage collector's (LocalClusterTest, examples/02-children).
 */
@ExtendWith(LocalClusterExtension.class)
class HierarchiesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Map<String, String> LABELS = Map.of("app", "web", "tier", "family");

    public static class Children {
        @On.Create("kopfexamples")
        public Map<String, Object> create(Body body, KubernetesClient client) {
            // A Pod, adopted by the handled object: named by the API server after it, in its namespace, with its labels.
            Pod pod = new PodBuilder().withNewSpec().addNewContainer().withName("main").withImage("busybox")
                    .endContainer().endSpec().build();
            Hierarchies.adopt(pod);
            Pod created = client.pods().resource(pod).create();

            // A StatefulSet named exactly as its owner, its pods' template labelled too (its selector needs them).
            StatefulSet set = new StatefulSetBuilder().withNewSpec().withServiceName(body.meta().name())
                    .withNewSelector().withMatchLabels(body.meta().labels()).endSelector()
                    .withNewTemplate().withNewSpec().addNewContainer().withName("main").withImage("busybox")
                    .endContainer().endSpec().endTemplate().endSpec().build();
            Hierarchies.adopt(set, body, false, true, "spec.template");
            client.apps().statefulSets().resource(set).create();

            // A ConfigMap as JSON maps, step by step: it keeps its own name and gets a label of its own.
            Map<String, Object> config = new HashMap<>(Map.of("apiVersion", "v1", "kind", "ConfigMap",
                    "metadata", Map.of("name", body.meta().name() + "-config"), "data", Map.of("size", "1")));
            Hierarchies.appendOwnerReference(config);
            Hierarchies.harmonizeNaming(config);
            Hierarchies.adjustNamespace(config);
            Hierarchies.label(config);
            Hierarchies.label(config, Map.of("role", "config"));
            client.resource(client.getKubernetesSerialization().asJson(config)).create();

            // A Secret as a GenericKubernetesResource, adopted, then disowned: it outlives its owner.
            GenericKubernetesResource secret = new GenericKubernetesResourceBuilder().withApiVersion("v1")
                    .withKind("Secret").addToAdditionalProperties("stringData", Map.of("password", "x")).build();
            Hierarchies.adopt(secret);
            Hierarchies.removeOwnerReference(secret);
            client.genericKubernetesResources("v1", "Secret").resource(secret).create();

            return Map.of("pod", Hierarchies.buildObjectReference(created), "owners", Hierarchies.buildOwnerReferences(body));
        }
    }

    @Test
    void aCreateHandlerAdoptsChildrenOfEveryForm(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KubernetesClient client = cluster.client();
        String ns = namespace.name();
        try (KopfRunner runner = fixture.run(Children.class)) {
            String uid = fixture.examples().create("family", Map.of("size", 1), Map.of(), LABELS).getMetadata().getUid();
            await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("family")).containsKey("create"));
            Map<String, Object> owner = Map.of("controller", true, "blockOwnerDeletion", true,
                    "apiVersion", "kopf.dev/v1", "kind", "KopfExample", "name", "family", "uid", uid);

            // The handler's own Pod; the StatefulSet controller makes the StatefulSet's (family-0) beside it.
            List<Pod> pods = client.pods().inNamespace(ns).list().getItems().stream()
                    .filter(candidate -> candidate.getMetadata().getOwnerReferences().stream().anyMatch(ref -> uid.equals(ref.getUid())))
                    .toList();
            assertThat(pods).hasSize(1);
            Pod pod = pods.get(0);
            assertThat(pod.getMetadata().getGenerateName()).isEqualTo("family-");
            assertThat(pod.getMetadata().getName()).startsWith("family-").hasSize("family-".length() + 5);
            assertOwnedAndLabelled(pod.getMetadata(), ns, uid, LABELS);

            StatefulSet set = client.apps().statefulSets().inNamespace(ns).withName("family").get();
            assertThat(set.getMetadata().getGenerateName()).isNull();
            assertOwnedAndLabelled(set.getMetadata(), ns, uid, LABELS);
            assertThat(set.getSpec().getTemplate().getMetadata().getLabels()).isEqualTo(LABELS);

            ObjectMeta config = client.configMaps().inNamespace(ns).withName("family-config").get().getMetadata();
            assertOwnedAndLabelled(config, ns, uid, Map.of("app", "web", "tier", "family", "role", "config"));

            List<GenericKubernetesResource> secrets = client.genericKubernetesResources("v1", "Secret").inNamespace(ns)
                    .withLabels(LABELS).list().getItems();
            assertThat(secrets).singleElement().satisfies(secret -> {
                assertThat(secret.getMetadata().getName()).startsWith("family-");
                assertThat(secret.getMetadata().getOwnerReferences()).isEmpty();
            });

            assertThat(fixture.examples().status("family")).containsEntry("create", Map.of(
                    "pod", Map.of("apiVersion", "v1", "kind", "Pod", "name", pod.getMetadata().getName(),
                            "uid", pod.getMetadata().getUid(), "namespace", ns),
                    "owners", List.of(owner)));
            assertThat(runner.output()).contains(fixture.about("family") + "Handler 'create' succeeded.");
        }
    }

    private static void assertOwnedAndLabelled(ObjectMeta metadata, String namespace, String uid, Map<String, String> labels) {
        assertThat(metadata.getNamespace()).isEqualTo(namespace);
        assertThat(metadata.getLabels()).isEqualTo(labels);
        assertThat(metadata.getOwnerReferences()).singleElement().satisfies(reference -> {
            assertThat(reference).extracting(OwnerReference::getApiVersion, OwnerReference::getKind,
                    OwnerReference::getName, OwnerReference::getUid, OwnerReference::getController,
                    OwnerReference::getBlockOwnerDeletion)
                    .containsExactly("kopf.dev/v1", "KopfExample", "family", uid, true, true);
        });
    }
}
