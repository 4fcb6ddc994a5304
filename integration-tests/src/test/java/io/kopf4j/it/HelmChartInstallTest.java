package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.Release;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.cli.Main;
import io.kopf4j.envtest.ApiCall;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.RbacGrants;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Helm chart of {@code kopf4j manifests --helm}, installed into the local cluster by Helm's own
 * code (helm-java, as {@code helm install} and {@code helm upgrade} do), and the operator run as its
 * Deployment runs it (the Deployment's args; no kubelet runs its pods here) with the token of the
 * chart's ServiceAccount: its values turn leader election on and secure metrics off, against the
 * options the chart was made with, and the operator's every API call (the audit log) is within the
 * installed RBAC, which grants nothing unused; a new {@code namespaces} value moves the Roles.
 */
@ExtendWith(LocalClusterExtension.class)
class HelmChartInstallTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String CRD = Path.of("../examples/crd.yaml").toString();

    /** The chart of GeneratedRbacTest's handlers (a ConfigMap created by a handler, with its @Permission) serving the namespace. */
    private static Path chart(LocalCluster cluster, String name, String namespace) throws Exception {
        Path chart = Files.createTempDirectory("chart").resolve(name);
        Main.Captured result = Main.capture("manifests", "--kubeconfig", cluster.kubeconfig().toString(), "--crd", CRD,
                "--name", name, "--image", "example.com/op:1", "-n", namespace, "--standalone", "--helm", chart.toString(),
                GeneratedRbacTest.Handlers.class.getName());
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(new Helm(chart).lint().strict().call().isFailed()).isFalse();
        return chart;
    }

    private static Path values(String yaml) throws Exception {
        return Files.writeString(Files.createTempFile("values", ".yaml"), yaml);
    }

    /** The args of the operator's container in the release's Deployment. */
    private static List<String> deploymentArgs(LocalCluster cluster, String namespace, String name) {
        Deployment deployment = cluster.client().apps().deployments().inNamespace(namespace).withName(name).get();
        return deployment.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs();
    }

    /** Runs the operator as the release's Deployment runs it, under its ServiceAccount, but with ports of the system's choice. */
    private static KopfRunner runAsTheDeployment(LocalCluster cluster, String namespace, String name) {
        List<String> args = deploymentArgs(cluster, namespace, name).stream()
                .map(arg -> arg.matches("--(health-probe|metrics)-bind-address=.*") ? arg.replaceFirst("=.*", "=127.0.0.1:0") : arg)
                .toList();
        KopfRunner runner = KopfRunner.start(cluster.kubeconfigForServiceAccount(namespace, name), WAIT, args.toArray(String[]::new));
        await().atMost(WAIT).until(() -> runner.output().contains("handler(s)"));
        return runner;
    }

    @Test
    void theOperatorRunsUnderTheInstalledRbacOfItsValuesAndUsesExactlyIt(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        String ns = namespace.name();
        String name = "charted";
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);   // the CRD, before the chart resolves it
        Path chart = chart(cluster, name, ns);
        Helm helm = new Helm(chart);
        Release release = helm.install().withName(name).withNamespace(ns).withKubeConfig(cluster.kubeconfig())
                .withValuesFile(values("leaderElection: {enabled: true}\nmetrics: {port: 8080, secure: false}\n")).call();
        try {
            assertThat(release.getStatus()).isEqualTo("deployed");
            assertThat(deploymentArgs(cluster, ns, name)).contains("--namespace=" + ns, "--leader-election", "--no-metrics-secure",
                    "--metrics-bind-address=:8080", "--standalone", GeneratedRbacTest.Handlers.class.getName());
            String user = "system:serviceaccount:" + ns + ":" + name;
            try (KopfRunner runner = runAsTheDeployment(cluster, ns, name)) {
                GeneratedRbacTest.exercise(cluster, fixture, runner);
                // The Lease's patch is its renewal, every 2 s: a run shorter than that leaves the grant unused.
                await().atMost(WAIT).until(() -> cluster.apiCalls(user).stream()
                        .anyMatch(call -> call.resource().equals("leases") && call.verb().equals("patch")));
            }
            RbacGrants grants = RbacGrants.boundTo(installed(cluster.client(), name), ns, name);
            List<ApiCall> calls = grants.settledCalls(cluster, user, List.of("patch events in " + ns), Duration.ofSeconds(10));
            assertThat(grants.differences(calls, List.of("patch events in " + ns)))
                    .as("the installed RBAC against the requests (a repeated Event may not be patched); the requests: %s", calls)
                    .isEmpty();
            assertThat(grants.grants()).anyMatch(grant -> grant.resource().equals("leases"))
                    .noneMatch(grant -> grant.resource().equals("tokenreviews"));
        } finally {
            Helm.uninstall(name).withNamespace(ns).withKubeConfig(cluster.kubeconfig()).call();
        }
    }

    @Test
    void anUpgradeToOtherNamespacesMovesTheRolesAndTheOperatorServesThem(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        String ns = namespace.name();
        String name = "moved";
        new OperatorFixture(cluster, namespace);
        Helm helm = new Helm(chart(cluster, name, ns));
        helm.install().withName(name).withNamespace(ns).withKubeConfig(cluster.kubeconfig()).call();
        try (TemporaryNamespace other = new TemporaryNamespace(cluster.client(), "helm-moved")) {
            OperatorFixture fixture = new OperatorFixture(cluster, other);
            assertThat(role(cluster, ns, name)).isNotNull();

            Release upgrade = helm.upgrade().withName(name).withNamespace(ns).withKubeConfig(cluster.kubeconfig())
                    .withValuesFile(values("namespaces: [" + other.name() + "]\n")).call();

            assertThat(upgrade.getRevision()).isEqualTo("2");
            assertThat(role(cluster, ns, name)).as("the Role of the namespace no longer served").isNull();
            assertThat(role(cluster, other.name(), name).getRules()).extracting(PolicyRule::getResources)
                    .contains(List.of("kopfexamples"), List.of("kopfexamples/status"), List.of("configmaps"));
            try (KopfRunner runner = runAsTheDeployment(cluster, ns, name)) {
                fixture.examples().create("ex", Map.of("a", 1));
                await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("ex")).containsEntry("create", "created"));
                assertThat(runner.output()).doesNotContainPattern(GeneratedRbacTest.HTTP_403).doesNotContain("lacks");
            }
        } finally {
            Helm.uninstall(name).withNamespace(ns).withKubeConfig(cluster.kubeconfig()).call();
        }
    }

    private static Role role(LocalCluster cluster, String namespace, String name) {
        return cluster.client().rbac().roles().inNamespace(namespace).withName(name).get();
    }

    /** The RBAC objects of the release, by the labels the chart gives them. */
    private static List<HasMetadata> installed(KubernetesClient client, String release) {
        Map<String, String> labels = Map.of("app.kubernetes.io/instance", release);
        List<HasMetadata> objects = new ArrayList<>();
        objects.addAll(client.rbac().roles().inAnyNamespace().withLabels(labels).list().getItems());
        objects.addAll(client.rbac().roleBindings().inAnyNamespace().withLabels(labels).list().getItems());
        objects.addAll(client.rbac().clusterRoles().withLabels(labels).list().getItems());
        objects.addAll(client.rbac().clusterRoleBindings().withLabels(labels).list().getItems());
        return objects;
    }
}
