package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.On;
import io.kopf4j.Permission;
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

/**
 * The RBAC that {@code kopf4j manifests} derives, applied to a real API server and bound to the
 * operator's service account: the operator runs under it with no 403; a rule dropped from it is
 * named by the preflight (and by {@code kopf4j check-rbac}), the Events' rule dropped is a warning.
 */
@ExtendWith(LocalClusterExtension.class)
class GeneratedRbacTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String NAME = "op";   // short: the user name is a certificate's common name (64 characters at most)

    /** Handlers that store results in the status, hold a finalizer, and create a ConfigMap themselves. */
    @Permission(resources = "configmaps", verbs = "create")
    public static class Handlers {
        @On.Create("kopfexamples")
        public String create(String name, String namespace, KubernetesClient client) {
            client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata()
                    .withName(name + "-child").endMetadata().build()).create();
            return "created";
        }

        @On.Update("kopfexamples")
        public String update() {
            return "updated";
        }

        @On.Delete("kopfexamples")
        public void delete() {
        }
    }

    private static String user(TemporaryNamespace namespace) {
        return "system:serviceaccount:" + namespace.name() + ":" + NAME;
    }

    /** Generates the manifests for -n NAMESPACE (the cluster's discovery resolves the resources), and applies them. */
    private static Path applyManifests(LocalCluster cluster, TemporaryNamespace namespace, Path dir) throws Exception {
        Main.Captured result = kopf4j("manifests", "--kubeconfig", cluster.kubeconfig().toString(), "-n", namespace.name(),
                "--name", NAME, "--operator-namespace", namespace.name(), "--image", "example.com/op:1", "-o", dir.toString(),
                Handlers.class.getName());
        assertThat(result.code()).as(result.err()).isZero();
        for (String kind : List.of("service-account", "role", "role-binding", "deployment")) {
            assertThat(dir.resolve(kind + ".yaml")).exists();
        }
        String rbac = Files.readString(dir.resolve("role.yaml"));
        assertThat(rbac).doesNotContain("*").contains("# @Permission on Handlers: what its handlers do themselves")
                .contains("resources: [kopfexamples/status]");
        assertThat(Files.readString(dir.resolve("kustomization.yaml"))).contains("- role.yaml", "- deployment.yaml");
        try (var files = Files.list(dir)) {
            cluster.apply(files.filter(f -> !f.getFileName().toString().equals("kustomization.yaml")).toArray(Path[]::new));
        }
        return cluster.kubeconfigFor(user(namespace), "system:serviceaccounts", "system:serviceaccounts:" + namespace.name());
    }

    @Test
    void theOperatorRunsUnderTheGeneratedRbacWithoutAnyForbiddenRequest(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        Path kubeconfig = applyManifests(cluster, namespace, Files.createTempDirectory("manifests"));
        assertThat(kopf4j("check-rbac", "--kubeconfig", kubeconfig.toString(), "-n", namespace.name(),
                Handlers.class.getName()).code()).isZero();
        assertThat(kopf4j("check-rbac", "--kubeconfig", cluster.kubeconfig().toString(), "--as", user(namespace),
                "-n", namespace.name(), Handlers.class.getName()).code()).isZero();
        try (KopfRunner runner = KopfRunner.start(kubeconfig, "run", "-n", namespace.name(), Handlers.class.getName())) {
            exercise(cluster, fixture, runner);
            assertThat(runner.output()).contains(fixture.about("ex") + "Handler 'delete' succeeded.");
        }
    }

    /**
     * Creates, updates and deletes an object for {@link Handlers}, each handled (the object goes once its
     * delete handler succeeded), the child made, the Events posted, and no request refused.
     */
    /** A 403 in the log, not the digits inside a port (":40381") or a timestamp's milliseconds (",403]"). */
    static final String HTTP_403 = "(?<![\\d,:])403(?!\\d)";

    static void exercise(LocalCluster cluster, OperatorFixture fixture, KopfRunner runner) {
        KopfExamples examples = fixture.examples();
        examples.create("ex", Map.of("a", 1));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex")).containsEntry("create", "created"));
        examples.patch("ex", Map.of("spec", Map.of("a", 2)));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex")).containsEntry("update", "updated"));
        examples.delete("ex");
        await().atMost(WAIT).until(() -> examples.get("ex") == null);
        assertThat(cluster.client().configMaps().inNamespace(fixture.namespace()).withName("ex-child").get()).isNotNull();
        // Events are posted too (after the handlers' lines): no 403 can come after this one.
        await().atMost(WAIT).until(() -> !cluster.client().v1().events().inNamespace(fixture.namespace()).list().getItems().isEmpty());
        assertThat(runner.output()).doesNotContainPattern(HTTP_403).doesNotContainIgnoringCase("forbidden").doesNotContain("lacks");
    }

    @Test
    void aDroppedRuleIsNamedByThePreflightAndByCheckRbac(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        new OperatorFixture(cluster, namespace);
        Path kubeconfig = applyManifests(cluster, namespace, Files.createTempDirectory("manifests"));
        dropRule(cluster, namespace, "kopfexamples/status");

        Main.Captured run = kopf4j("run", "--kubeconfig", kubeconfig.toString(), "-n", namespace.name(), Handlers.class.getName());
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).contains("kopf4j: error: The operator lacks 1 permission it needs, and does not start")
                .contains("\n  patch on kopfexamples/status (group kopf.dev) in namespace '" + namespace.name() + "', for handler"
                        + " 'create', handler 'update': its results (and progress) in the status\n")   // 'delete' returns nothing
                .contains("\n    add to a Role in '" + namespace.name()
                        + "': {apiGroups: [kopf.dev], resources: [kopfexamples/status], verbs: [patch]}");
        System.out.println("The preflight's error as a user sees it:\n" + run.err());

        Main.Captured check = kopf4j("check-rbac", "--kubeconfig", kubeconfig.toString(), "-n", namespace.name(),
                Handlers.class.getName());
        assertThat(check.code()).isEqualTo(1);
        assertThat(check.out()).contains("verbs: [patch]}").doesNotContain("verbs: [list");
    }

    @Test
    void withoutTheEventsRuleThePreflightWarnsAndTheOperatorRuns(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        Path kubeconfig = applyManifests(cluster, namespace, Files.createTempDirectory("manifests"));
        dropRule(cluster, namespace, "events");
        try (KopfRunner runner = KopfRunner.start(kubeconfig, "run", "-n", namespace.name(), Handlers.class.getName())) {
            fixture.examples().create("ex", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("ex")).containsEntry("create", "created"));
            assertThat(runner.output()).contains("The operator lacks 2 permissions it runs without, losing what needs them")
                    .contains("create, patch on events (group core) in namespace '" + namespace.name() + "'");
        }
    }

    private static void dropRule(LocalCluster cluster, TemporaryNamespace namespace, String resource) {
        Role role = cluster.client().rbac().roles().inNamespace(namespace.name()).withName(NAME).get();
        List<PolicyRule> kept = role.getRules().stream().filter(rule -> !rule.getResources().equals(List.of(resource))).toList();
        assertThat(kept).hasSize(role.getRules().size() - 1);
        role.setRules(kept);
        cluster.client().resource(role).update();
    }

    private static Main.Captured kopf4j(String... args) {
        return Main.capture(args);
    }
}
