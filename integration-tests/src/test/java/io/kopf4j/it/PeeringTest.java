package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.cli.Main;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.internal.engines.peering.Peer;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kopf's peering between operators in JVMs of their own, through the KopfPeering object of the
 * test's namespace (Kopf's CRDs from peering/peering.yaml; never a cluster-wide "default" object,
 * which would pause the cluster-wide operators of other tests).
 */
@ExtendWith(LocalClusterExtension.class)
class PeeringTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String WHO = "KOPF4J_TEST_WHO";
    private static final String LIFETIME = "KOPF4J_TEST_LIFETIME";
    /** Short, so that a killed operator's record expires soon; its keep-alive then runs every second. */
    private static final Map<String, String> SHORT_LIFETIME = Map.of(LIFETIME, "3");
    /** Kopf's lastseen: Python's isoformat of an aware UTC time. */
    private static final Pattern LASTSEEN = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{6})?\\+00:00");

    public static class Handlers {
        @On.Startup
        public void configure(OperatorSettings settings) {
            String lifetime = System.getenv(LIFETIME);
            if (lifetime != null) {
                settings.peering.lifetime = Duration.ofSeconds(Long.parseLong(lifetime));
            }
        }

        @On.Create("kopfexamples")
        public String create() {
            return System.getenv(WHO);
        }
    }

    @TempDir
    Path dir;
    private OperatorFixture fixture;
    private KopfExamples peerings;
    private String namespace;
    private final List<Process> processes = new ArrayList<>();

    @BeforeEach
    void setUp(LocalCluster cluster, TemporaryNamespace namespace) throws IOException {
        Path crds = dir.resolve("peering-crds.yaml");
        try (InputStream yaml = Files.newInputStream(Path.of("../peering/peering.yaml"))) {
            cluster.client().load(yaml).items().stream()
                    .filter(item -> item.getKind().equals("CustomResourceDefinition"))
                    .forEach(crd -> appendYaml(crds, cluster.client().getKubernetesSerialization().asYaml(crd)));
        }
        cluster.apply(crds);
        this.fixture = new OperatorFixture(cluster, namespace);
        this.namespace = namespace.name();
        this.peerings = new KopfExamples(cluster.client(), this.namespace, "kopf.dev/v1", "KopfPeering");
        peerings.create("default", Map.of());
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        for (Process process : processes) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void onlyTheHigherPriorityHandlesAndTheLowerTakesOverAfterTheLifetimeOfTheKilledOne() throws Exception {
        Path lowLog = dir.resolve("low.log");
        Path highLog = dir.resolve("high.log");
        start(lowLog, "low", "--priority", "10");
        start(highLog, "high", "--priority", "20");
        Process high = processes.getLast();

        await().atMost(WAIT).until(() -> Files.readString(lowLog).contains("Pausing operations in favour of [<Peer "));
        assertThat(Files.readString(lowLog)).containsPattern("Pausing operations in favour of \\[<Peer [^:]+: priority=20,"
                + " lifetime=3, lastseen='" + LASTSEEN + "'>\\]\\.");
        await().atMost(WAIT).untilAsserted(() -> assertThat(records()).hasSize(2).allSatisfy((id, record) ->
                assertKopfsRecord(record)));

        fixture.examples().create("first", Map.of());
        await().atMost(WAIT).until(() -> "high".equals(fixture.examples().status("first").get("create")));
        // The status goes first and the diff-base last: only with both stored is "first" handled for good.
        await().atMost(WAIT).until(() -> fixture.examples().annotations("first")
                .containsKey("kopf.zalando.org/last-handled-configuration"));

        high.destroyForcibly();   // SIGKILL: its record stays until it expires
        high.waitFor(10, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> Files.readString(lowLog).contains(
                "Resuming operations after the pause. Conflicting operators with the same priority are gone."));
        await().atMost(WAIT).untilAsserted(() -> assertThat(records()).hasSize(1));   // the dead record removed

        fixture.examples().create("second", Map.of());
        await().atMost(WAIT).until(() -> "low".equals(fixture.examples().status("second").get("create")));
        // The low one has seen "first" since (listed again at its resume, before "second"): it never handled it.
        assertThat(Files.readString(lowLog)).contains(fixture.about("second") + "Handler 'create' succeeded.")
                .doesNotContain(fixture.about("first") + "Handler");
    }

    @Test
    void equalPrioritiesAllPauseWithKopfsWarningUntilOneLeaves() throws Exception {
        Path oneLog = dir.resolve("one.log");
        Path twoLog = dir.resolve("two.log");
        start(oneLog, "one");
        start(twoLog, "two");

        for (Path log : List.of(oneLog, twoLog)) {
            await().atMost(WAIT).until(() -> Files.readString(log).contains("Pausing all operators, including self: [<Peer "));
            assertThat(Files.readString(log)).containsPattern(
                    "Possibly conflicting operators with the same priority: \\[<Peer [^:]+: priority=0, lifetime=3,");
        }
        fixture.examples().create("waiting", Map.of());

        Process two = processes.getLast();
        two.destroy();   // SIGTERM: it removes its record at exit, so the other resumes at once
        two.waitFor(30, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> "one".equals(fixture.examples().status("waiting").get("create")));
        String one = Files.readString(oneLog);
        assertThat(one.indexOf(fixture.about("waiting") + "Handler 'create' succeeded."))
                .isGreaterThan(one.indexOf("Resuming operations after the pause."));
        assertThat(Files.readString(twoLog)).doesNotContain(fixture.about("waiting") + "Handler");
    }

    @Test
    void freezePausesTheOperatorsAndResumeLetsThemGoOn(LocalCluster cluster) throws Exception {
        Path log = dir.resolve("operator.log");
        start(log, "operator");

        // A glob, as Kopf's -n takes: the namespaces matching it get the manual peer.
        assertThat(cli(cluster, "freeze", "-P", "default", "-n", namespace + "*", "--lifetime", "600", "-m", "maintenance")).isZero();
        await().atMost(WAIT).until(() -> Files.readString(log).contains("Pausing operations in favour of [<Peer "));
        assertThat(Files.readString(log)).containsPattern("in favour of \\[<Peer [^/:]+@[^/:]+: priority=100, lifetime=600,");
        fixture.examples().create("frozen", Map.of());

        assertThat(cli(cluster, "resume", "-P", "default", "-n", namespace)).isZero();
        await().atMost(WAIT).until(() -> "operator".equals(fixture.examples().status("frozen").get("create")));
        String output = Files.readString(log);
        assertThat(output.indexOf(fixture.about("frozen") + "Handler 'create' succeeded."))
                .isGreaterThan(output.indexOf("Resuming operations after the pause."));
        assertThat(records()).hasSize(1);   // the manual peer is gone
    }

    @Test
    void respectsAPeerWrittenInKopfsFormatAndRemovesItWhenItExpires(LocalCluster cluster) throws Exception {
        Path log = dir.resolve("operator.log");
        start(log, "operator");

        // As Kopf (Python) writes its keep-alive: a merge patch of status with its record.
        String lastseen = Peer.isoformat(Instant.now());
        cluster.setStatus("kopf.dev/v1", "KopfPeering", namespace, "default", Map.of("kopf@python-host/20261123165000/x7k",
                Map.of("priority", 50, "lifetime", 4, "lastseen", lastseen)));
        await().atMost(WAIT).until(() -> Files.readString(log).contains("Pausing operations in favour of [<Peer "
                + "kopf@python-host/20261123165000/x7k: priority=50, lifetime=4, lastseen='" + lastseen + "'>]."));
        // Both records side by side, the operator's own keep-alive in Kopf's format too.
        await().atMost(WAIT).untilAsserted(() -> assertThat(records()).hasSize(2)
                .containsKey("kopf@python-host/20261123165000/x7k").allSatisfy((id, record) -> assertKopfsRecord(record)));

        // Kopf stops renewing (killed): after its lifetime, the operator removes the record and resumes.
        await().atMost(WAIT).until(() -> Files.readString(log).contains("Resuming operations after the pause."));
        await().atMost(WAIT).untilAsserted(() -> assertThat(records()).doesNotContainKey("kopf@python-host/20261123165000/x7k"));
        fixture.examples().create("after", Map.of());
        await().atMost(WAIT).until(() -> "operator".equals(fixture.examples().status("after").get("create")));
    }

    private void start(Path log, String who, String... options) throws Exception {
        Map<String, String> environment = new java.util.HashMap<>(SHORT_LIFETIME);
        environment.put(WHO, who);
        List<String> args = new ArrayList<>(List.of("-v"));
        args.addAll(List.of(options));
        processes.add(fixture.runInOwnJvm(log, environment, Handlers.class, args.toArray(String[]::new)));
    }

    /** Runs a kopf4j command in this JVM, as a user would in a shell. */
    private static int cli(LocalCluster cluster, String... args) {
        List<String> command = new ArrayList<>(List.of(args));
        command.addAll(List.of("--kubeconfig", cluster.kubeconfig().toString()));
        StringWriter err = new StringWriter();
        int code = Main.execute(command.toArray(String[]::new), new PrintWriter(new StringWriter()), new PrintWriter(err));
        assertThat(err.toString()).as("stderr").isEmpty();
        return code;
    }

    /** The records in the peering object's status, by identity. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> records() {
        Object status = peerings.get("default").getAdditionalProperties().get("status");
        return status == null ? Map.of() : (Map<String, Object>) status;
    }

    /** Kopf's record: exactly priority, lifetime (whole seconds) and lastseen (Python's isoformat); the API server sorts the keys. */
    private static void assertKopfsRecord(Object record) {
        assertThat(record).isInstanceOfSatisfying(Map.class, map -> {
            assertThat(map.keySet()).containsExactlyInAnyOrder("priority", "lifetime", "lastseen");
            assertThat(map.get("priority")).isInstanceOf(Integer.class);
            assertThat(map.get("lifetime")).isInstanceOf(Integer.class);
            assertThat((String) map.get("lastseen")).matches(LASTSEEN);
        });
    }

    private static void appendYaml(Path file, String yaml) {
        try {
            Files.writeString(file, yaml + "\n---\n", java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
