package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.On;
import io.kopf4j.cli.Main;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kopf4j migrate-storage} on the real API server: objects stored in v1alpha1 are rewritten
 * in v1 after the storage version moved, a second pass rewrites none, the CRD forgets v1alpha1, and
 * only then does the API server accept the CRD without v1alpha1.
 */
@ExtendWith(LocalClusterExtension.class)
class StorageMigrationTest {
    private static final String CRD = "migrations.kopf4j.dev";

    @TempDir
    Path dir;

    @Test
    void objectsStoredInAnOldVersionAreRewrittenAndTheOldVersionCanGo(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        KubernetesClient client = cluster.client();
        cluster.apply(crd("v1alpha1"));
        try {
            var objects = client.genericKubernetesResources("kopf4j.dev/v1alpha1", "Migration").inNamespace(namespace.name());
            for (String name : List.of("m1", "m2", "m3")) {
                objects.resource(new GenericKubernetesResourceBuilder().withApiVersion("kopf4j.dev/v1alpha1")
                        .withKind("Migration").withNewMetadata().withName(name).endMetadata()
                        .addToAdditionalProperties("spec", Map.of("size", 1)).build()).create();
            }
            cluster.apply(crd("v1"));   // v1 is stored from now on; the three stay in v1alpha1
            await().atMost(Duration.ofSeconds(30)).until(() -> storedVersions(client).equals(List.of("v1alpha1", "v1")));
            assertThatThrownBy(() -> client.resource(withoutV1alpha1(crd(client))).update())
                    .isInstanceOf(KubernetesClientException.class).hasMessageContaining("must appear in spec.versions");

            Main.Captured first = Main.capture("migrate-storage", "--kubeconfig", cluster.kubeconfig().toString(), CRD,
                    "--forget-old-versions");
            assertThat(first.code()).as(first.err()).isZero();
            assertThat(first.out().lines()).containsExactly(
                    CRD + ": 3 objects in v1, 3 rewritten, 0 failed",
                    CRD + ": status.storedVersions [v1alpha1, v1] → [v1]");
            assertThat(storedVersions(client)).containsExactly("v1");

            Main.Captured second = Main.capture("migrate-storage", "--kubeconfig", cluster.kubeconfig().toString(), CRD);
            assertThat(second.out().lines()).containsExactly(CRD + ": 3 objects in v1, 0 rewritten, 0 failed");

            client.resource(withoutV1alpha1(crd(client))).update();
            assertThat(crd(client).getSpec().getVersions()).extracting(CustomResourceDefinitionVersion::getName)
                    .containsExactly("v1");
        } finally {
            client.apiextensions().v1().customResourceDefinitions().withName(CRD).delete();
        }
    }

    @Test
    void anUnknownCrdIsOneClearError(LocalCluster cluster) {
        Main.Captured result = Main.capture("migrate-storage", "--kubeconfig", cluster.kubeconfig().toString(),
                "nothings.kopf4j.dev");
        assertThat(result.code()).isNotZero();
        assertThat(result.err()).contains("kopf4j: error: no CRD nothings.kopf4j.dev at https://127.0.0.1:");
    }

    /** The CRD in two versions, the given one stored; the schemas keep every field (no conversion needed). */
    private Path crd(String storage) throws Exception {
        return crd("migrations", "Migration", storage);
    }

    private Path crd(String plural, String kind, String storage) throws Exception {
        return Files.writeString(dir.resolve(plural + "-" + storage + ".yaml"), """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: %1$s.kopf4j.dev}
                spec:
                  group: kopf4j.dev
                  scope: Namespaced
                  names: {plural: %1$s, singular: %2$s, kind: %3$s}
                  versions:
                  - {name: v1alpha1, served: true, storage: %4$s, schema: {openAPIV3Schema: %6$s}}
                  - {name: v1, served: true, storage: %5$s, schema: {openAPIV3Schema: %6$s}}
                """.formatted(plural, kind.toLowerCase(java.util.Locale.ROOT), kind, storage.equals("v1alpha1"),
                storage.equals("v1"), OperatorFixture.ANY_FIELDS));
    }

    /** Stateful handlers of one kind in two versions: each object would be handled twice, with one state. */
    public static class TwoVersions {
        @On.Create("splits.v1.kopf4j.dev")
        public void create() {
        }

        @On.Resume("splits.v1alpha1.kopf4j.dev")
        public void resume() {
        }
    }

    @Test
    void statefulHandlersOfOneKindInTwoVersionsAreWarnedOf(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        cluster.apply(crd("splits", "Split", "v1"));
        try (KopfRunner runner = new OperatorFixture(cluster, namespace).run(TwoVersions.class)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> runner.output().contains("Handlers of splits.kopf4j.dev"
                    + " watch it in 2 versions (v1, v1alpha1): each object is handled in each, with one finalizer,"
                    + " progress and last-handled state; name one version in all of them."));
        } finally {
            cluster.client().apiextensions().v1().customResourceDefinitions().withName("splits.kopf4j.dev").delete();
        }
    }

    private static CustomResourceDefinition crd(KubernetesClient client) {
        return client.apiextensions().v1().customResourceDefinitions().withName(CRD).get();
    }

    private static List<String> storedVersions(KubernetesClient client) {
        return crd(client).getStatus().getStoredVersions();
    }

    private static CustomResourceDefinition withoutV1alpha1(CustomResourceDefinition crd) {
        crd.getSpec().setVersions(crd.getSpec().getVersions().stream().filter(v -> v.getName().equals("v1")).toList());
        return crd;
    }
}
