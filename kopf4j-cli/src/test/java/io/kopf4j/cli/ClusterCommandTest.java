package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kopf4j.On;
import io.kopf4j.internal.loading.ClusterClients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kopf4j cluster} keeps a local cluster beyond the operators run on it ({@code run
 * --local-cluster NAME}): an operator started again on it does not handle an object again, and the
 * objects stay from a stop of the cluster to its next start. Real processes throughout: the
 * cluster's, and each operator in a JVM of its own, stopped by SIGTERM as from a terminal.
 */
class ClusterCommandTest {
    private static final String CRD = Path.of("../examples/crd.yaml").toAbsolutePath().toString();
    private static final String NAME = "kept-test";
    private static final Duration STARTUP = Duration.ofMinutes(3);
    private static final Duration WAIT = Duration.ofSeconds(60);

    /** The operator: what it does to a new object, and to an existing one when it starts again. */
    public static class Handlers {
        @On.Create("kopfexamples")
        public void created() {
        }

        @On.Resume("kopfexamples")
        public void resumed() {
        }
    }

    @TempDir
    Path dir;

    private final List<Process> operators = new ArrayList<>();

    private Path dataHome() {
        return dir.resolve("data");
    }

    /** Where `run --local-cluster NAME` looks for it in an operator's JVM whose XDG_DATA_HOME is {@link #dataHome()}. */
    private Path dataDir() {
        return dataHome().resolve("kopf4j").resolve("clusters").resolve(NAME);
    }

    private static Properties properties(Path dataDir) throws IOException {
        Properties state = new Properties();
        try (var in = Files.newInputStream(dataDir.resolve("cluster.properties"))) {
            state.load(in);
        }
        return state;
    }

    @AfterEach
    void stopEverything() {
        operators.forEach(Process::destroyForcibly);
        Main.capture("cluster", "stop", NAME, "--data-dir", dataDir().toString(), "--delete");
    }

    @Test
    void anOperatorRestartedOnAKeptClusterDoesNotHandleItsObjectAgainAndTheObjectsOutliveAStop() throws Exception {
        Main.Captured started = cluster("start");
        assertThat(started.code()).as(started.err()).isZero();
        Path kubeconfig = dataDir().resolve("kubeconfig");
        assertThat(started.out()).contains("Local cluster " + NAME + " started: https://127.0.0.1:",
                "export KUBECONFIG=" + kubeconfig);
        assertOwnerOnly(dataDir());
        assertThat(cluster("start").out()).contains("Local cluster " + NAME + " is already running: https://127.0.0.1:");
        Main.Captured status = cluster("status");
        assertThat(status.code()).isZero();
        assertThat(status.out()).contains("Local cluster " + NAME + ": running", "Kubernetes: v", "Kubeconfig: " + kubeconfig,
                "Controllers: kube-controller-manager (garbage collector");
        long died = Long.parseLong(properties(dataDir()).getProperty("kube-controller-manager.pid"));
        ProcessHandle.of(died).ifPresent(ProcessHandle::destroy);   // the controllers die: a start brings them back
        await().atMost(WAIT).until(() -> ProcessHandle.of(died).map(p -> !p.isAlive()).orElse(true));
        assertThat(cluster("start").out()).contains("is already running");
        long controllerManager = Long.parseLong(properties(dataDir()).getProperty("kube-controller-manager.pid"));
        assertThat(controllerManager).isNotEqualTo(died);
        assertThat(cluster("status").out()).contains("Controllers: kube-controller-manager (garbage collector");

        Path firstLog = dir.resolve("first.log");
        Process first = operator(firstLog, "--crd", CRD);
        await().atMost(WAIT).until(() -> Files.readString(firstLog).contains("serves 2 handler(s)"));
        try (KubernetesClient client = ClusterClients.of(kubeconfig, null)) {
            examples(client).resource(example("one")).create();
            await().atMost(WAIT).until(() -> Files.readString(firstLog).contains("[default/one] Handler 'created' succeeded."));
            stop(first);
            assertThat(cluster("status").code()).as("the kept cluster outlives the operator").isZero();

            Path secondLog = dir.resolve("second.log");
            Process second = operator(secondLog);
            // Resuming never mixes with creation (Kopf's causes): an object seen as new would get 'created', not this.
            await().atMost(WAIT).until(() -> Files.readString(secondLog).contains("[default/one] Handler 'resumed' succeeded."));
            examples(client).resource(example("two")).create();
            // The second object handled: the first one's processing is long over, with no creation handled again.
            await().atMost(WAIT).until(() -> Files.readString(secondLog).contains("[default/two] Handler 'created' succeeded."));
            assertThat(Files.readString(secondLog)).doesNotContain("[default/one] Handler 'created'");
            stop(second);
        }

        Main.Captured stopped = cluster("stop");
        assertThat(stopped.out()).contains("Local cluster " + NAME + " stopped; its data stays in " + dataDir());
        await().atMost(WAIT).until(() -> ProcessHandle.of(controllerManager).map(p -> !p.isAlive()).orElse(true));
        Main.Captured notRunning = cluster("status");
        assertThat(notRunning.code()).isEqualTo(ClusterCommand.Status.NOT_RUNNING);
        assertThat(notRunning.out()).contains("Local cluster " + NAME + ": not running");

        assertThat(cluster("start").code()).isZero();
        try (KubernetesClient client = ClusterClients.of(kubeconfig, null)) {
            assertThat(examples(client).withName("one").get()).as("kept through a stop and a start").isNotNull();
            client.persistentVolumeClaims().inNamespace("default").resource(new PersistentVolumeClaimBuilder()
                    .withNewMetadata().withName("data").endMetadata()
                    .withNewSpec().withAccessModes("ReadWriteOnce")
                    .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources().endSpec()
                    .build()).create();

            Main.Captured bound = Main.capture("set-status", "--kubeconfig", kubeconfig.toString(), "pvc", "data",
                    "{\"phase\":\"Bound\"}");
            assertThat(bound.code()).as(bound.err()).isZero();
            assertThat(bound.out()).contains("persistentvolumeclaims default/data: status {\"phase\":\"Bound\"}");
            assertThat(client.persistentVolumeClaims().inNamespace("default").withName("data").get().getStatus().getPhase())
                    .isEqualTo("Bound");

            Main.Captured message = Main.capture("set-status", "--kubeconfig", kubeconfig.toString(), "-n", "default",
                    "kex", "one", "{\"message\":\"hello\"}");
            assertThat(message.code()).as(message.err()).isZero();
            assertThat(examples(client).withName("one").get().getAdditionalProperties().get("status"))
                    .isEqualTo(Map.of("message", "hello"));

            assertThat(Main.capture("set-status", "--kubeconfig", kubeconfig.toString(), "kexx", "one", "{}").err())
                    .contains("kopf4j: error: resource kexx cannot be resolved");
            assertThat(Main.capture("set-status", "--kubeconfig", kubeconfig.toString(), "kex", "none", "{}").err())
                    .contains("kopf4j: error: no kopfexamples.v1.kopf.dev default/none at https://127.0.0.1:");
            assertThat(Main.capture("set-status", "--kubeconfig", kubeconfig.toString(), "kex", "one", "[1]").err())
                    .contains("kopf4j: error: JSON of set-status must be an object of status fields");
        }
    }

    @Test
    void runOnALocalClusterThatDoesNotRunSaysHowToStartIt() {
        Main.Captured result = Main.capture("run", "--local-cluster", "never-started-kopf4j-test", "-n", "default",
                Handlers.class.getName());

        assertThat(result.code()).isEqualTo(1);
        assertThat(result.err()).contains("kopf4j: error: local cluster never-started-kopf4j-test is not running:"
                + " start it with `kopf4j cluster start never-started-kopf4j-test`");
    }

    /** A handlers' file after a bare {@code --local-cluster} is the handlers', as before: a throw-away cluster for them. */
    @Test
    void aFileAfterABareLocalClusterOptionIsAHandlersFileNotAClusterName() {
        Main.Captured result = Main.capture("run", "--local-cluster", "Missing.java");

        assertThat(result.code()).isEqualTo(1);
        assertThat(result.err()).contains("kopf4j: error: handlers file not found: Missing.java");
    }

    @Test
    void anInvalidClusterNameIsAnInvalidCommandLine() {
        assertThat(Main.capture("run", "--local-cluster=Bad_Name", Handlers.class.getName()).err())
                .contains("Invalid cluster name 'Bad_Name' for --local-cluster: lowercase letters, digits and inner dashes");
        Main.Captured start = Main.capture("cluster", "start", "Bad_Name");
        assertThat(start.code()).isEqualTo(2);
        assertThat(start.err()).contains("Invalid cluster name 'Bad_Name': lowercase letters, digits and inner dashes");
    }

    private Main.Captured cluster(String command) {
        return Main.capture("cluster", command, NAME, "--data-dir", dataDir().toString());
    }

    /** {@code kopf4j run --local-cluster NAME} in a JVM of its own, as from a terminal. */
    private Process operator(Path log, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", "--local-cluster", NAME,
                "-n", "default"));
        command.addAll(List.of(options));
        command.add(Handlers.class.getName());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("XDG_DATA_HOME", dataHome().toString());
        Process process = builder.start();
        operators.add(process);
        return process;
    }

    /**
     * The cluster's secrets (the CA's and the admin's keys, the kubeconfig) are its owner's alone: the
     * data directory 0700, every file in it and in its pki 0600. etcd keeps its data directory 0700 itself.
     */
    private static void assertOwnerOnly(Path dataDir) throws IOException {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir.resolve("pki")))).isEqualTo("rwx------");
        for (Path file : List.of(dataDir.resolve("kubeconfig"), dataDir.resolve("pki/ca.key"), dataDir.resolve("pki/ca.crt"),
                dataDir.resolve("pki/admin.key"), dataDir.resolve("pki/apiserver.key"), dataDir.resolve("pki/sa.key"))) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).as(file.toString()).isEqualTo("rw-------");
        }
    }

    private static void stop(Process operator) throws InterruptedException {
        operator.destroy();
        assertThat(operator.waitFor(STARTUP.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(operator.exitValue()).isZero();
    }

    private static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            examples(KubernetesClient client) {
        return client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace("default");
    }

    private static GenericKubernetesResource example(String name) {
        GenericKubernetesResource example = new GenericKubernetesResource();
        example.setApiVersion("kopf.dev/v1");
        example.setKind("KopfExample");
        example.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
        example.setAdditionalProperty("spec", Map.of("field", "value"));
        return example;
    }
}
