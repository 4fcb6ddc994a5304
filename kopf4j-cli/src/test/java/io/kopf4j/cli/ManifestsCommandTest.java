package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.On;
import io.kopf4j.Permission;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kopf4j manifests} without a cluster: the CRD file and the built-in resources resolve the handlers' resources. */
class ManifestsCommandTest {
    private static final String CRD = Path.of("../examples/crd.yaml").toString();

    @TempDir
    Path dir;

    @Permission(resources = "pods", verbs = "create")
    public static class Children {
        @On.Create("kopfexamples")
        public String create() {
            return "done";
        }
    }

    public static class Widgets {
        @On.Create("widgets")
        public void create() {
        }
    }

    private static Main.Captured kopf4j(String... args) {
        return Main.capture(args);
    }

    @Test
    void explicitNamespacesGetARoleEachAndTheDeploymentRunsWithTheSameOptions() {
        Main.Captured result = kopf4j("manifests", "--crd", CRD, "--operator-namespace", "ops", "--image", "example.com/op:1",
                "-n", "team-a", "-n", "team-b", "--standalone", Children.class.getName());
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(result.out())
                .contains("kind: ServiceAccount", "kind: Role\nmetadata:\n  name: children\n  namespace: team-a\n",
                        "kind: Role\nmetadata:\n  name: children\n  namespace: team-b\n", "kind: RoleBinding",
                        "kind: CustomResourceDefinition", "image: example.com/op:1")
                .contains("# @Permission on Children: what its handlers do themselves\n- apiGroups: [\"\"]\n  resources: [pods]\n"
                        + "  verbs: [create]\n")
                .contains(String.join("\n        - ", "args:", "run", "--namespace=team-a", "--namespace=team-b", "--standalone",
                        "--health-probe-bind-address=:8081", "--metrics-bind-address=:8080", "--log-format=json",
                        Children.class.getName()) + "\n")
                // Only the CRDs' watch is cluster-wide: no namespace patterns, no peering.
                .contains("kind: ClusterRole\n").doesNotContain("resources: [namespaces]", "kopfpeerings", "*");
    }

    @Test
    void anUnresolvableResourceIsOneErrorNamingTheHandlerAndSuggestingCrd() {
        Main.Captured result = kopf4j("manifests", "--crd", CRD, Widgets.class.getName());
        assertThat(result.code()).isEqualTo(1);
        assertThat(result.err()).contains("kopf4j: error: Handler ManifestsCommandTest.Widgets.create()".replace("ManifestsCommandTest.", "")
                + ": its resource widgets cannot be resolved: pass its CRD with --crd FILE");
    }

    @Test
    void anOutputDirectoryGetsOneFilePerKindAndAKustomization() throws Exception {
        Main.Captured result = kopf4j("manifests", "--crd", CRD, "-o", dir.toString(), Children.class.getName());
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(Files.readString(dir.resolve("kustomization.yaml"))).isEqualTo("""
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources:
                - service-account.yaml
                - cluster-role.yaml
                - cluster-role-binding.yaml
                - deployment.yaml
                - custom-resource-definition.yaml
                """);
        assertThat(Files.readString(dir.resolve("cluster-role.yaml"))).contains("resources: [clusterkopfpeerings]");
    }
}
