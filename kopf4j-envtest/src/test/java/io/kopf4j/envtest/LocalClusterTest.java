package io.kopf4j.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalClusterExtension.class)
class LocalClusterTest {
    private static final Path CRD = Path.of("../examples/crd.yaml");

    @Test
    void servesARealApiServerOnLoopbackWithTls(LocalCluster cluster) {
        assertThat(cluster.serverUrl()).startsWith("https://127.0.0.1:");
        assertThat(cluster.serverVersion()).matches("v1\\.\\d+\\.\\d+.*");
        assertThat(cluster.client().namespaces().withName("default").get()).isNotNull();
    }

    @Test
    void etcdSaysItsVersionAndLogsWithZap(LocalCluster cluster) throws Exception {
        assertThat(cluster.etcdVersion()).matches("3\\.\\d+\\.\\d+");
        // zap's JSON lines; with its default logger (capnslog), etcd 3.4 warned at every start that it is deprecated.
        Path log = cluster.kubeconfig().resolveSibling("logs").resolve("etcd.log");
        assertThat(Files.readString(log)).contains("\"level\":\"info\"").doesNotContain("Deprecated");
    }

    @Test
    void appliedCrdIsServedAtOnce(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        cluster.apply(CRD);
        KubernetesClient client = cluster.client();
        var example = client.genericKubernetesResources("kopf.dev/v1", "KopfExample")
                .inNamespace(namespace.name())
                .load(Files.newInputStream(Path.of("../examples/obj.yaml")))
                .create();
        assertThat(example.getMetadata().getUid()).isNotBlank();
    }

    @Test
    void setStatusWritesTheStatusSubresourceAsAKubeletWould(LocalCluster cluster, TemporaryNamespace namespace) {
        KubernetesClient client = cluster.client();
        client.pods().inNamespace(namespace.name()).resource(new PodBuilder()
                .withNewMetadata().withName("web").endMetadata()
                .withNewSpec().addNewContainer().withName("web").withImage("nginx").endContainer().endSpec().build()).create();
        cluster.setStatus("v1", "Pod", namespace.name(), "web",
                Map.of("phase", "Running", "conditions", List.of(Map.of("type", "Ready", "status", "True"))));
        cluster.setStatus("v1", "Pod", namespace.name(), "web", Map.of("podIP", "10.0.0.7"));
        var status = client.pods().inNamespace(namespace.name()).withName("web").get().getStatus();
        assertThat(List.of(status.getPhase(), status.getConditions().get(0).getStatus(), status.getPodIP()))
                .containsExactly("Running", "True", "10.0.0.7");
    }

    @Test
    void theGarbageCollectorDeletesTheChildrenOfADeletedOwner(LocalCluster cluster, TemporaryNamespace namespace) {
        requireControllers(cluster);
        KubernetesClient client = cluster.client();
        var owner = client.configMaps().inNamespace(namespace.name())
                .resource(new ConfigMapBuilder().withNewMetadata().withName("owner").endMetadata().build()).create();
        client.configMaps().inNamespace(namespace.name()).resource(new ConfigMapBuilder().withNewMetadata().withName("child")
                .addNewOwnerReference().withApiVersion("v1").withKind("ConfigMap").withName("owner")
                .withUid(owner.getMetadata().getUid()).withController(true).endOwnerReference().endMetadata().build()).create();
        client.configMaps().inNamespace(namespace.name()).withName("owner").delete();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> client.configMaps().inNamespace(namespace.name()).withName("child").get() == null);
    }

    @Test
    void aDeploymentGetsItsReplicaSetAndPendingPodsFromTheControllers(LocalCluster cluster, TemporaryNamespace namespace) {
        requireControllers(cluster);
        KubernetesClient client = cluster.client();
        client.apps().deployments().inNamespace(namespace.name()).resource(new DeploymentBuilder()
                .withNewMetadata().withName("web").endMetadata()
                .withNewSpec().withReplicas(2)
                .withNewSelector().addToMatchLabels("app", "web").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
                .withNewSpec().addNewContainer().withName("web").withImage("nginx").endContainer().endSpec().endTemplate()
                .endSpec().build()).create();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(client.pods().inNamespace(namespace.name())
                .withLabel("app", "web").list().getItems()).hasSize(2)
                .allSatisfy(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Pending")));
    }

    @Test
    void aDeletedNamespaceGoesWithItsObjects(LocalCluster cluster) {
        requireControllers(cluster);
        KubernetesClient client = cluster.client();
        TemporaryNamespace namespace = new TemporaryNamespace(client, "deleted");
        client.configMaps().inNamespace(namespace.name())
                .resource(new ConfigMapBuilder().withNewMetadata().withName("inside").endMetadata().build()).create();
        namespace.close();
        await().atMost(Duration.ofSeconds(60)).until(() -> client.namespaces().withName(namespace.name()).get() == null);
    }

    @Test
    void withoutControllersOnlyEtcdAndTheApiServerRun() {
        try (LocalCluster cluster = LocalCluster.builder().controllers(false).start()) {
            assertThat(cluster.controllersRunning()).isFalse();
            assertThat(cluster.processIds()).hasSize(2);
        }
    }

    @Test
    void setStatusOfACustomObjectKeepsItsSpec(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        cluster.apply(CRD);
        cluster.client().genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name())
                .load(Files.newInputStream(Path.of("../examples/obj.yaml"))).create();
        var stored = cluster.setStatus("kopf.dev/v1", "KopfExample", namespace.name(), "kopf-example-1",
                Map.of("phase", "Ready"));
        assertThat(stored.getAdditionalProperties().get("status")).isEqualTo(Map.of("phase", "Ready"));
        assertThat(stored.getAdditionalProperties().get("spec")).asInstanceOf(InstanceOfAssertFactories.MAP)
                .containsEntry("field", "value");
    }

    @Test
    void serviceAccountKubeconfigHasExactlyTheServiceAccountsPermissions(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        String ns = namespace.name();
        KubernetesClient admin = cluster.client();
        admin.serviceAccounts().inNamespace(ns).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName("operator").endMetadata().build()).create();
        admin.rbac().roles().inNamespace(ns).resource(new RoleBuilder().withNewMetadata().withName("read-configmaps")
                .endMetadata().addNewRule().withApiGroups("").withResources("configmaps").withVerbs("get", "list")
                .endRule().build()).create();
        admin.rbac().roleBindings().inNamespace(ns).resource(new RoleBindingBuilder().withNewMetadata()
                .withName("operator").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", "read-configmaps")
                .addNewSubject().withKind("ServiceAccount").withName("operator").withNamespace(ns).endSubject()
                .build()).create();
        admin.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("settings")
                .endMetadata().build()).create();

        Path kubeconfig = cluster.kubeconfigForServiceAccount(ns, "operator");
        try (KubernetesClient operator = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString())).build()) {
            assertThat(operator.configMaps().inNamespace(ns).withName("settings").get()).isNotNull();
            assertThatThrownBy(() -> operator.secrets().inNamespace(ns).list())
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining("User \"system:serviceaccount:" + ns + ":operator\" cannot list resource \"secrets\"");
        }
        assertThatThrownBy(() -> cluster.kubeconfigForServiceAccount(ns, "absent"))
                .hasMessage("no ServiceAccount " + ns + "/absent to make a token for");
    }

    @Test
    void kubeconfigWorksForKubectl(LocalCluster cluster) throws Exception {
        Process kubectl = new ProcessBuilder(cluster.binaries().resolve("kubectl").toString(),
                "--kubeconfig", cluster.kubeconfig().toString(), "get", "namespace", "default", "-o", "name")
                .redirectErrorStream(true).start();
        assertThat(new String(kubectl.getInputStream().readAllBytes()).strip()).isEqualTo("namespace/default");
        assertThat(kubectl.waitFor()).isZero();
    }

    @Test
    void leavesNoProcessBehindWhenTheTestBodyThrows() {
        List<Long> pids = new ArrayList<>();
        assertThatThrownBy(() -> {
            try (LocalCluster cluster = LocalCluster.start()) {
                pids.addAll(cluster.processIds());
                throw new IllegalStateException("the test body failed");
            }
        }).hasMessage("the test body failed");
        assertThat(pids).hasSize(processesPerCluster());
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("pid %d alive", pid).isFalse();
        }
    }

    @Test
    void leavesNoProcessBehindWhenTheJvmIsTerminated() throws Exception {
        // SIGTERM: the JVM runs its shutdown hooks, which stop the processes before it exits.
        List<ProcessHandle> processes = clusterOfAChildJvmEndedBy(Process::destroy);
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
    }

    @Test
    void leavesNoProcessBehindWhenTheJvmIsKilled() throws Exception {
        // SIGKILL: no hook runs; the processes, outside the JVM's process group, are stopped by their watchdogs.
        List<ProcessHandle> processes = clusterOfAChildJvmEndedBy(Process::destroyForcibly);
        try {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(processes).noneMatch(ProcessHandle::isAlive));
        } finally {
            processes.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** etcd, kube-apiserver, and kube-controller-manager where the binaries have it. */
    private static int processesPerCluster() {
        return LocalCluster.controllersByDefault() ? 3 : 2;
    }

    /**
     * The controllers run unless turned off for the whole run: the binaries of scripts/envtest.sh (CI's)
     * include kube-controller-manager, so a cluster without it here is a defect, not a reason to skip.
     */
    private static void requireControllers(LocalCluster cluster) {
        assumeTrue(LocalCluster.controllersByDefault(), "the controllers are off (-Dkopf4j.envtest.controllers=false)");
        assertThat(cluster.controllersRunning()).as("kube-controller-manager runs beside " + cluster.binaries()).isTrue();
    }

    /** The processes of a cluster started in a child JVM, after that JVM is ended by {@code end}. */
    private static List<ProcessHandle> clusterOfAChildJvmEndedBy(Consumer<Process> end) throws Exception {
        Path javaBinary = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(javaBinary.toString(), "-cp", System.getProperty("java.class.path"),
                "-D" + LocalCluster.CONTROLLERS_PROPERTY + "=" + LocalCluster.controllersByDefault(),
                ClusterInChildJvm.class.getName()).redirectErrorStream(true).start();
        List<ProcessHandle> processes = new ArrayList<>();
        try (var lines = new BufferedReader(new InputStreamReader(child.getInputStream()))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("pids ")) {
                    Arrays.stream(line.substring(5).split(" ")).map(Long::parseLong)
                            .forEach(pid -> ProcessHandle.of(pid).ifPresent(processes::add));
                    break;
                }
            }
            assertThat(processes).as("the child JVM's cluster processes").hasSize(processesPerCluster());
            end.accept(child);
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        return processes;
    }

    @Test
    void apiServerRestartsOnTheSameData() {
        try (LocalCluster cluster = LocalCluster.start()) {
            KubernetesClient client = cluster.client();
            client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
                    .withNewMetadata().withName("survivor").endMetadata().addToData("k", "v").build()).create();
            cluster.stopApiServer();
            assertThat(cluster.processIds()).hasSize(processesPerCluster() - 1);   // etcd (and the controllers) go on
            cluster.startApiServer();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(client.configMaps().inNamespace("default").withName("survivor").get().getData()).containsEntry("k", "v"));
        }
    }

    @Test
    void aKilledControlPlaneRestartsOnItsDataAndACompactionExpiresOlderVersions() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(List.of("--watch-cache=false"))) {
            KubernetesClient client = cluster.client();
            var configMaps = client.configMaps().inNamespace("default");
            String before = configMaps.resource(new ConfigMapBuilder().withNewMetadata().withName("survivor").endMetadata()
                    .addToData("k", "v").build()).create().getMetadata().getResourceVersion();
            cluster.killControlPlane();
            assertThat(cluster.processIds()).isEmpty();
            cluster.restartControlPlane();
            var edited = configMaps.withName("survivor").edit(map -> new ConfigMapBuilder(map).addToData("k2", "v2").build());
            assertThat(edited.getData()).containsEntry("k", "v");
            // Another revision: a watch from the very revision compacted to is no older than it (and fails otherwise).
            edited = configMaps.withName("survivor").edit(map -> new ConfigMapBuilder(map).addToData("k3", "v3").build());
            assertThat(Long.parseLong(edited.getMetadata().getResourceVersion())).as("the revision goes on").isGreaterThan(Long.parseLong(before));

            assertThat(cluster.compactEtcd()).isGreaterThanOrEqualTo(Long.parseLong(edited.getMetadata().getResourceVersion()));
            var http = client.getHttpClient();
            String watch = http.sendAsync(http.newHttpRequestBuilder().uri(cluster.serverUrl()
                    + "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=10&resourceVersion=" + before).build(),
                    String.class).get(30, TimeUnit.SECONDS).body();
            assertThat(watch).as("a watch from a compacted version").contains("\"type\":\"ERROR\"").contains("\"code\":410");
        }
    }

    @Test
    void aFrozenApiServerAnswersOnlyOnceThawed() {
        try (LocalCluster cluster = LocalCluster.start()) {
            cluster.freezeApiServer();
            CompletableFuture<?> request = CompletableFuture.supplyAsync(() -> cluster.client().namespaces().withName("default").get());
            // A request answered in milliseconds otherwise: two seconds without an answer (or with a failure, shown) tell.
            assertThatThrownBy(() -> request.get(2, TimeUnit.SECONDS)).isInstanceOf(TimeoutException.class);
            cluster.thawApiServer();
            await().atMost(Duration.ofSeconds(30)).until(request::isDone);
            assertThat(request).isCompleted();
        }
    }
}
