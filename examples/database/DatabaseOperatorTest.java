import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.LIST;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1beta1.CronJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kopf4j.cli.Main;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs examples/database as `kopf4j run` does, against a real API server (Kubernetes 1.20: CronJobs
 * are batch/v1beta1 there), as the service account of deploy/ (what kopf4j manifests generates), with
 * a token of its own: a verb missing from its
 * ClusterRole (or from its Role for the leader election's Lease) fails these tests. The local cluster runs the StatefulSet
 * controller and the garbage collector, but no kubelet: the test makes the database's Pods ready.
 */
@ExtendWith(LocalClusterExtension.class)
class DatabaseOperatorTest {
    private static final String OPERATOR = "database/DatabaseOperator.java";
    /** How deploy/ was generated (examples/README's command): the test checks it still is what this makes. */
    private static final String[] MANIFESTS = {"manifests", "-A", "--leader-election", "--leader-election-id=database-operator",
        "--log-format=json", "--replicas", "2", "--crd", "database/crd.yaml", "--name", "database-operator",
        "--operator-namespace", "database-operator", "--image", "registry.example.com/database-operator:1.0", "-o"};
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The labels of the database's Pods, which its StatefulSet makes and the test makes ready as their node would. */
    private static final Map<String, String> POD_LABELS = Map.of("app.kubernetes.io/instance", "orders-db");

    private LocalCluster cluster;
    private KubernetesClient client;
    private String namespace;

    @BeforeEach
    void setUp(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        this.cluster = cluster;
        this.client = cluster.client();
        this.namespace = namespace.name();
        // As kubectl apply -k database/deploy: the Namespace first.
        cluster.apply(Path.of("database/deploy/namespace.yaml"));
        try (Stream<Path> deploy = Files.list(Path.of("database/deploy"))) {
            cluster.apply(deploy.filter(file -> !file.endsWith("kustomization.yaml")).sorted().toArray(Path[]::new));
        }
    }

    @Test
    void provisionsReportsReadinessScalesRepairsTogglesBackupsAndCleansUp() throws Exception {
        try (KopfRunner runner = startOperator()) {
            GenericKubernetesResource database;
            try (InputStream yaml = Files.newInputStream(Path.of("database/database.yaml"))) {
                database = databases().load(yaml).create();
            }
            String prefix = "[" + namespace + "/orders-db] ";

            // Created: the children, owned by the Database; not ready while the StatefulSet's Pods are not.
            await().atMost(WAIT).until(() -> statefulSet() != null);
            StatefulSet set = statefulSet();
            assertOwnedAndLabelled(set, database);
            assertThat(set.getSpec().getReplicas()).isEqualTo(2);
            assertThat(set.getSpec().getServiceName()).isEqualTo("orders-db");
            assertThat(set.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("team", "orders");
            assertThat(set.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("postgres:16");
            assertThat(set.getSpec().getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests())
                    .containsEntry("storage", new Quantity("100Gi"));
            assertThat(set.getMetadata().getManagedFields()).extracting(ManagedFieldsEntry::getManager)
                    .contains("database-operator");
            await().atMost(WAIT).until(() -> client.services().inNamespace(namespace).withName("orders-db").get() != null);
            Service service = client.services().inNamespace(namespace).withName("orders-db").get();
            assertOwnedAndLabelled(service, database);
            assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
            assertThat(service.getSpec().getPorts()).extracting(ServicePort::getPort).containsExactly(5432);
            await().atMost(WAIT).until(() -> backupCronJob() != null);
            CronJob backups = backupCronJob();
            assertOwnedAndLabelled(backups, database);
            assertThat(backups.getSpec().getSchedule()).isEqualTo("0 2 * * *");
            assertThat(backups.getSpec().getJobTemplate().getSpec().getTemplate().getMetadata().getLabels())
                    .containsEntry("team", "orders");
            await().atMost(WAIT).untilAsserted(() -> assertThat(status())
                    .containsEntry("state", "Provisioning").containsEntry("readyReplicas", 0)
                    .containsEntry("endpoint", "orders-db." + namespace + ".svc.cluster.local:5432"));
            await().atMost(WAIT).untilAsserted(() -> assertThat(readyCondition()).containsEntry("status", "False")
                    .containsEntry("reason", "ChildrenNotReady")
                    .containsEntry("message", "2/3 ready; StatefulSet '" + namespace + "/orders-db': Ready: 0/2"));

            // Ready: the StatefulSet's status runs the children handler again, without a timer.
            cluster.readyPods(namespace, POD_LABELS, 2);   // as their node would; the StatefulSet controller counts them
            await().atMost(WAIT).untilAsserted(() -> assertThat(status())
                    .containsEntry("state", "Ready").containsEntry("readyReplicas", 2));
            await().atMost(WAIT).untilAsserted(() -> assertThat(readyCondition()).containsEntry("status", "True")
                    .containsEntry("reason", "ChildrenReady").containsEntry("message", "3/3 ready"));

            // Scaled: the StatefulSet is applied with the new replicas; the status follows them as they get ready.
            patchSpec("{\"spec\":{\"replicas\":3}}");
            await().atMost(WAIT).until(() -> statefulSet().getSpec().getReplicas() == 3);
            await().atMost(WAIT).untilAsserted(() -> assertThat(status()).containsEntry("state", "Degraded"));
            await().atMost(WAIT).untilAsserted(() -> assertThat(readyCondition()).containsEntry("status", "False"));
            cluster.readyPods(namespace, POD_LABELS, 3);
            await().atMost(WAIT).untilAsserted(() -> assertThat(status())
                    .containsEntry("state", "Ready").containsEntry("readyReplicas", 3));

            // Edited by hand: put back.
            client.apps().statefulSets().inNamespace(namespace).withName("orders-db").edit(edited -> {
                edited.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("postgres:9");
                return edited;
            });
            await().atMost(WAIT).until(() -> "postgres:16".equals(
                    statefulSet().getSpec().getTemplate().getSpec().getContainers().get(0).getImage()));

            // Backups off, then on again: the CronJob, no longer returned, is deleted, then applied again.
            patchSpec("{\"spec\":{\"backupEnabled\":false}}");
            await().atMost(WAIT).until(() -> backupCronJob() == null);
            assertThat(runner.output()).contains(prefix + "Child CronJob '" + namespace
                    + "/orders-db-backup' is deleted: Handler 'children' returns it no more.");
            patchSpec("{\"spec\":{\"backupEnabled\":true}}");
            await().atMost(WAIT).until(() -> backupCronJob() != null);

            // Deleted: the delete handler removes the backups, then the finalizer is released.
            databases().withName("orders-db").delete();
            await().atMost(WAIT).until(() -> databases().withName("orders-db").get() == null);
            assertThat(runner.output()).contains(prefix + "Database orders-db cleanup complete")
                    .contains(prefix + "Handler 'delete' succeeded.");
            assertThat(backupCronJob()).isNull();
        }
    }

    @Test
    void theDeployDirectoryIsWhatKopf4jManifestsGenerates(@TempDir Path generated) throws Exception {
        List<String> args = new ArrayList<>(List.of(MANIFESTS));
        args.addAll(List.of(generated.toString(), OPERATOR));
        Main.Captured result = Main.capture(args.toArray(String[]::new));
        assertThat(result.code()).as(result.err()).isZero();
        String regenerate = "regenerate it: cd examples && ../kopf4j " + String.join(" ", MANIFESTS) + " database/deploy " + OPERATOR;
        try (Stream<Path> files = Files.list(generated)) {
            for (Path file : files.toList()) {
                assertThat(Path.of("database/deploy").resolve(file.getFileName())).as(regenerate).hasSameTextualContentAs(file);
            }
        }
        try (Stream<Path> files = Files.list(Path.of("database/deploy"))) {
            assertThat(files.map(file -> generated.resolve(file.getFileName()))).as(regenerate).allMatch(Files::exists);
        }
    }

    @Test
    void theCrdIsGeneratedFromTheOperatorsClasses() {
        Main.Captured result = Main.capture("crd", OPERATOR);
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(Path.of("database/crd.yaml")).as("regenerate it: ./kopf4j crd examples/database/DatabaseOperator.java"
                + " > examples/database/crd.yaml").hasContent(result.out());
    }

    @Test
    void appliesTheSchemaAndItsDefaultsAndFailsForGoodOnAnUnsupportedVersion() {
        assertThatThrownBy(() -> databases().resource(database("oracle-db", "oracle", "19")).create())
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("spec.engine: Unsupported value: \"oracle\"");
        try (KopfRunner runner = startOperator()) {
            GenericKubernetesResource legacy = databases().resource(database("legacy-db", "postgresql", "9.6")).create();
            assertThat(legacy.getAdditionalProperties().get("spec")).isEqualTo(Map.of("engine", "postgresql",
                    "version", "9.6", "storage", "1Gi", "replicas", 1, "backupEnabled", true));

            String problem = "Unsupported postgresql version '9.6': expected one of [14, 15, 16, 17]";
            await().atMost(WAIT).until(() -> runner.output().contains(
                    "[" + namespace + "/legacy-db] Handler 'children' failed permanently: " + problem));
            await().atMost(WAIT).untilAsserted(() -> assertThat(databases().withName("legacy-db").get()
                    .getAdditionalProperties().get("status")).asInstanceOf(MAP)
                    .containsEntry("state", "Failed")
                    .extractingByKey("conditions").asInstanceOf(LIST)
                    .singleElement().asInstanceOf(MAP)
                    .containsEntry("type", "Ready").containsEntry("status", "False")
                    .containsEntry("reason", "InvalidSpec").containsEntry("message", problem));
            assertThat(client.apps().statefulSets().inNamespace(namespace).list().getItems()).isEmpty();
            assertThat(client.batch().v1beta1().cronjobs().inNamespace(namespace).list().getItems()).isEmpty();
        }
    }

    /** The committed RBAC against what the operator did in this class's tests (its ServiceAccount is theirs alone). */
    @AfterAll
    static void rbacWasExactlyWhatTheOperatorUsed(LocalCluster cluster) {
        String notServed = "the test's operator runs --standalone and serves no metrics: the Deployment's (-A) peers and is scraped";
        GeneratedRbac.assertCallsWithinRulesAndRulesUsed(cluster, Path.of("database/deploy"), "database-operator",
                "database-operator", Map.of(
                        "list kopf.dev/clusterkopfpeerings (cluster-wide)", notServed,
                        "watch kopf.dev/clusterkopfpeerings (cluster-wide)", notServed,
                        "patch kopf.dev/clusterkopfpeerings (cluster-wide)", notServed,
                        "create authentication.k8s.io/tokenreviews (cluster-wide)", notServed,
                        "create authorization.k8s.io/subjectaccessreviews (cluster-wide)", notServed,
                        "delete apps/statefulsets (cluster-wide)", "children are pruned when no longer returned: the StatefulSet always is",
                        "delete services (cluster-wide)", "children are pruned when no longer returned: the Service always is"));
    }

    private KopfRunner startOperator() {
        // As deploy/deployment.yaml, with the Lease where the pod's namespace would put it; but in the test's namespace
        // (-n, not -A: other tests' objects of the same kinds are in this cluster), so standalone: a
        // namespaced operator's peering is its namespace's KopfPeering, which the Deployment's (-A) RBAC does not grant.
        return KopfRunner.start(cluster.kubeconfigForServiceAccount("database-operator", "database-operator"), "run", "-v",
                "-n", namespace, "--standalone", "--leader-election", "--leader-election-id=database-operator",
                "--leader-election-namespace=database-operator", OPERATOR);
    }

    private static void assertOwnedAndLabelled(HasMetadata child, GenericKubernetesResource database) {
        assertThat(child.getMetadata().getNamespace()).isEqualTo(database.getMetadata().getNamespace());
        assertThat(child.getMetadata().getOwnerReferences()).singleElement()
                .extracting(OwnerReference::getApiVersion, OwnerReference::getKind, OwnerReference::getName,
                        OwnerReference::getUid, OwnerReference::getController, OwnerReference::getBlockOwnerDeletion)
                .containsExactly("techoral.com/v1", "Database", "orders-db", database.getMetadata().getUid(), true, true);
        assertThat(child.getMetadata().getLabels()).containsEntry("team", "orders")
                .containsEntry("app.kubernetes.io/instance", "orders-db")
                .containsEntry("app.kubernetes.io/managed-by", "database-operator");
    }

    private static GenericKubernetesResource database(String name, String engine, String version) {
        return new GenericKubernetesResourceBuilder().withApiVersion("techoral.com/v1").withKind("Database")
                .withNewMetadata().withName(name).endMetadata()
                .addToAdditionalProperties("spec", Map.of("engine", engine, "version", version, "storage", "1Gi"))
                .build();
    }

    private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> databases() {
        return client.genericKubernetesResources("techoral.com/v1", "Database").inNamespace(namespace);
    }

    private void patchSpec(String mergePatch) {
        databases().withName("orders-db").patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> status() {
        Object status = databases().withName("orders-db").get().getAdditionalProperties().get("status");
        return status == null ? Map.of() : (Map<String, Object>) status;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> readyCondition() {
        return ((List<Map<String, Object>>) status().get("conditions")).stream()
                .filter(condition -> "Ready".equals(condition.get("type"))).findFirst().orElseThrow();
    }

    private StatefulSet statefulSet() {
        return client.apps().statefulSets().inNamespace(namespace).withName("orders-db").get();
    }

    private CronJob backupCronJob() {
        return client.batch().v1beta1().cronjobs().inNamespace(namespace).withName("orders-db-backup").get();
    }
}
