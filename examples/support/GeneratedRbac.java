import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.cli.Main;
import io.kopf4j.envtest.ApiCall;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.RbacGrants;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
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
    /** How long the audit log may take to show the operator's last requests after its stop. */
    private static final Duration AUDIT_LAG = Duration.ofSeconds(10);
    /** Kopf's peering CRDs: resolvable for the rules whether the cluster has them or not. */
    private static final Path PEERING_CRDS = Path.of("../peering/peering.yaml");
    /** What a run needs before it starts; the Deployment is for a cluster with a kubelet, the CRDs are applied already. */
    private static final Set<String> NOT_APPLIED = Set.of("kustomization.yaml", "deployment.yaml",
            "custom-resource-definition.yaml");
    /** The manifests generated for each namespace's run, to hold its requests against. */
    private static final Map<String, Path> MANIFESTS = new ConcurrentHashMap<>();

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
            MANIFESTS.put(namespace, dir);
            // The runs serve no metrics: the Deployment's secure metrics, and their reviews' rules, are not theirs.
            List<String> args = new ArrayList<>(List.of("manifests", "--crd", "crd.yaml", "--crd", PEERING_CRDS.toString(),
                    "--name", name, "--operator-namespace", namespace, "--no-metrics-secure", "-o", dir.toString()));
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

    /**
     * A grant that only some runs use, and why: {@code patch} on Events counts a repeat of an identical
     * Event into the first (client-go's correlation), so a run that posts no Event twice does not use
     * it. The examples that repeat their messages use it (03-exceptions' retries among them).
     */
    private static final Map<String, String> CONDITIONAL = Map.of(
            "patch events in NAMESPACE", "used only to count a repeated identical Event; this run may post none twice",
            "patch events (cluster-wide)", "used only to count a repeated identical Event; this run may post none twice");

    /**
     * What the operator of the namespace did, as the API server's audit log recorded it, held
     * against the RBAC generated for it: no request outside the rules (a 403 is one), and no rule
     * that no request used, but for those named with why the example's run may not use them (and
     * the {@link #CONDITIONAL} ones).
     *
     * @param unusedWithReason the grants this run may leave unused ({@code "delete pods in NAMESPACE"},
     *                         as {@link RbacGrants.Grant#toString()} writes them, NAMESPACE for the
     *                         run's), each with why
     */
    static void assertCallsWithinRulesAndRulesUsed(LocalCluster cluster, String namespace, Map<String, String> unusedWithReason) {
        Path dir = MANIFESTS.get(namespace);
        assertThat(dir).as("the manifests generated for " + namespace).isNotNull();
        assertCallsWithinRulesAndRulesUsed(cluster, dir, namespace, "operator-" + namespace, unusedWithReason);
    }

    /**
     * As {@link #assertCallsWithinRulesAndRulesUsed(LocalCluster, String, Map)}, for the manifests in a
     * directory (the RBAC of their bindings to the ServiceAccount) and that ServiceAccount's requests.
     *
     * @param namespace the ServiceAccount's namespace, also NAMESPACE in the grants of {@code unusedWithReason}
     */
    static void assertCallsWithinRulesAndRulesUsed(LocalCluster cluster, Path dir, String namespace, String serviceAccount,
                                                   Map<String, String> unusedWithReason) {
        List<Path> rbac;
        try (Stream<Path> files = Files.list(dir)) {
            rbac = files.filter(file -> file.getFileName().toString().matches(".*role(-binding)?\\.yaml")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        RbacGrants grants = RbacGrants.boundTo(cluster.client(), rbac, namespace, serviceAccount);
        String user = "system:serviceaccount:" + namespace + ":" + serviceAccount;
        Map<String, String> excused = new java.util.LinkedHashMap<>(CONDITIONAL);
        excused.putAll(unusedWithReason);
        List<String> mayBeUnused = excused.keySet().stream().map(grant -> grant.replace("NAMESPACE", namespace)).toList();
        List<ApiCall> calls = grants.settledCalls(cluster, user, mayBeUnused, AUDIT_LAG);
        assertThat(calls).as("the operator's requests, from the audit log").isNotEmpty();
        assertThat(grants.differences(calls, mayBeUnused))
                .as("the generated RBAC against the requests (the grants that may be unused, and why: %s); the requests: %s",
                        excused, calls).isEmpty();
        Set<String> unused = new TreeSet<>(grants.unused(calls).stream().map(RbacGrants.Grant::toString).toList());
        System.out.printf("RBAC of %s: %d requests, all within its %d generated grants; unused: %s%n", namespace, calls.size(),
                grants.grants().size(), unused.isEmpty() ? "none" : unused);
    }

    /** The operator met no 403 under its generated RBAC: neither a request refused nor a hint of kopf4j's. */
    static void assertNoForbidden(String output) {
        assertThat(output).as("the operator's log under its generated RBAC")
                .doesNotContain("Forbidden").doesNotContain("forbidden").doesNotContain("HTTP 403")
                .doesNotContain("[RBAC: ");
    }
}
