import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs examples/02-children as `kopf4j run` does, against a real API server: the child as the API
 * server stored it, and its deletion with the parent by the local cluster's garbage collector (the
 * KopfExample's CRD is applied before the cluster's first test, or discovered within 30 s).
 */
@ExtendWith(LocalClusterExtension.class)
class ChildrenExampleTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void createsOnePodOwnedNamedPlacedAndLabelledAsTheExample(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        cluster.apply(Path.of("crd.yaml"));
        KubernetesClient client = cluster.client();
        Path kubeconfig = GeneratedRbac.kubeconfig(cluster, namespace.name(), List.of("-v", "--standalone", "-n", namespace.name()),
                "02-children/ChildrenExample.java");
        try (KopfRunner runner = KopfRunner.start(kubeconfig, "run", "-v", "--standalone", "-n", namespace.name(),
                "02-children/ChildrenExample.java")) {
            GenericKubernetesResource example;
            try (InputStream yaml = Files.newInputStream(Path.of("obj.yaml"))) {
                example = client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name())
                        .load(yaml).create();
            }
            String prefix = "[" + namespace.name() + "/kopf-example-1] ";
            await().atMost(WAIT).until(() -> runner.output().contains(prefix + "Handler 'create_fn' succeeded."));

            List<Pod> pods = client.pods().inNamespace(namespace.name()).withLabel("somelabel", "somevalue").list().getItems();
            assertThat(pods).hasSize(1);
            Pod pod = pods.get(0);
            assertThat(pod.getMetadata().getName()).startsWith("kopf-example-1-");
            assertThat(pod.getMetadata().getGenerateName()).isEqualTo("kopf-example-1-");
            assertThat(pod.getMetadata().getLabels()).isEqualTo(Map.of("somelabel", "somevalue"));
            assertThat(pod.getMetadata().getOwnerReferences()).singleElement()
                    .extracting(OwnerReference::getApiVersion, OwnerReference::getKind, OwnerReference::getName,
                            OwnerReference::getUid, OwnerReference::getController, OwnerReference::getBlockOwnerDeletion)
                    .containsExactly("kopf.dev/v1", "KopfExample", "kopf-example-1", example.getMetadata().getUid(), true, true);
            Container container = pod.getSpec().getContainers().get(0);
            assertThat(container.getArgs()).containsExactly("echo \"FIELD=$FIELD\"\nsleep 1m\n");
            assertThat(container.getEnv()).extracting(EnvVar::getName, EnvVar::getValue)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("FIELD", "value"));

            await().atMost(WAIT).untilAsserted(() -> assertThat(client.genericKubernetesResources("kopf.dev/v1", "KopfExample")
                    .inNamespace(namespace.name()).withName("kopf-example-1").get().getAdditionalProperties().get("status"))
                    .isEqualTo(Map.of("create_fn", Map.of("children", List.of(pod.getMetadata().getUid())))));
            assertThat(runner.output()).contains(prefix + "Creation is processed: 1 succeeded; 0 failed.");

            client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name())
                    .withName("kopf-example-1").delete();
            await().atMost(Duration.ofSeconds(90)).until(() -> client.pods().inNamespace(namespace.name())
                    .withName(pod.getMetadata().getName()).get() == null);
            GeneratedRbac.assertNoForbidden(runner.output());
        }
        GeneratedRbac.assertCallsWithinRulesAndRulesUsed(cluster, namespace.name(), Map.of());
    }
}
