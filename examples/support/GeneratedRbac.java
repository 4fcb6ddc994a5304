import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.cli.Main;
import io.kopf4j.envtest.LocalCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * An example run as it would run in a cluster: the manifests of {@code kopf4j manifests} with the
 * run's own options, generated without a cluster (the resources resolved from the CRD files and
 * Kubernetes' built-in resources, as a user generates them), their ServiceAccount and RBAC applied,
 * and a kubeconfig with a token of that ServiceAccount, so the operator runs with exactly what the
 * generated RBAC grants it. The run's output must then have no 403 ({@link #assertNoForbidden}).
 *
 * <pre>{@code
 * Path kubeconfig = GeneratedRbac.kubeconfig(cluster, namespace, List.of("-n", namespace), "01-minimal/Example.java");
 * KopfRunner.start(kubeconfig, "run", "-v", "-n", namespace, "01-minimal/Example.java");
 * }</pre>
 */
final class GeneratedRbac {
    /** Kopf's peering CRDs: resolvable for the rules whether the cluster has them or not. */
    private static final Path PEERING_CRDS = Path.of("../peering/peering.yaml");
    /** What a run needs before it starts; the Deployment is for a cluster with a kubelet, the CRDs are applied already. */
    private static final Set<String> NOT_APPLIED = Set.of("kustomization.yaml", "deployment.yaml",
            "custom-resource-definition.yaml");

    private GeneratedRbac() {
    }

    /**
     * Generates the manifests of the handlers with these run options, applies the ServiceAccount
     * (named after the namespace, in it) and its RBAC, and returns the ServiceAccount's kubeconfig.
     *
     * @param runOptions the options of {@code kopf4j run}, as the example's run has them
     * @param handlers the example's files, relative to examples/
     */
    static Path kubeconfig(LocalCluster cluster, String namespace, List<String> runOptions, String... handlers) {
        String name = "operator-" + namespace;
        try {
            Path dir = Files.createTempDirectory("manifests");
            List<String> args = new ArrayList<>(List.of("manifests", "--crd", "crd.yaml", "--crd", PEERING_CRDS.toString(),
                    "--name", name, "--operator-namespace", namespace, "-o", dir.toString()));
            args.addAll(runOptions);
            args.addAll(List.of(handlers));
            Main.Captured result = Main.capture(args.toArray(String[]::new));
            assertThat(result.code()).as("kopf4j %s: %s", String.join(" ", args), result.err()).isZero();
            try (Stream<Path> files = Files.list(dir)) {
                cluster.apply(files.filter(file -> !NOT_APPLIED.contains(file.getFileName().toString())).sorted()
                        .toArray(Path[]::new));
            }
            return cluster.kubeconfigForServiceAccount(namespace, name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The operator met no 403 under its generated RBAC: neither a request refused nor a hint of kopf4j's. */
    static void assertNoForbidden(String output) {
        assertThat(output).as("the operator's log under its generated RBAC")
                .doesNotContain("Forbidden").doesNotContain("forbidden").doesNotContain("HTTP 403")
                .doesNotContain("[RBAC: ");
    }
}
