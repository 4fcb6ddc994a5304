package io.kopf4j.it;

import static io.kopf4j.it.KopfExamples.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas with {@code --leader-election}, each the command line in a JVM of its own: exactly
 * one handles; the other stands by, ready, and takes over when the leader is killed (within the
 * lease's timing), stops gracefully (at once: it releases the Lease), or loses the Lease (it pauses
 * at once, and lives on). Short timings keep the tests quick; {@code -Dkopf4j.it.defaultTimings=true}
 * runs them with controller-runtime's (15 s / 10 s / 2 s) and prints the hand-over times measured
 * for docs/performance.md.
 */
@ExtendWith(LocalClusterExtension.class)
class LeaderElectionTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final boolean DEFAULT_TIMINGS = Boolean.getBoolean("kopf4j.it.defaultTimings");
    private static final String LEASE_SECONDS = "KOPF4J_TEST_LEASE_SECONDS";
    private static final String REPLICA = "KOPF4J_TEST_REPLICA";
    private static final String ACQUIRED = "Acquired the leader Lease";
    /**
     * The lease of the tests that wait for it to run out: 10 s, not 4. A leader lets go after two
     * thirds of it without a renewal (tried every half second), a standby takes over after all of it:
     * with two test JVMs and the replicas' JVMs on two cores, 4 s (3 s to renew) left too little
     * room, and a late renewal would be a hand-over nobody asked for, with the wrong replica handling.
     */
    private static final int LEASE_SECONDS_SHORT = 10;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    public static class Handlers {
        /** Short timings, unless the test measures the defaults: renewals every half second, 2/3 of the lease to renew. */
        @On.Startup
        public void timings(OperatorSettings settings) {
            String lease = System.getenv(LEASE_SECONDS);
            if (lease != null) {
                settings.leadership.leaseDuration = Duration.ofSeconds(Long.parseLong(lease));
                settings.leadership.renewDeadline = settings.leadership.leaseDuration.multipliedBy(2).dividedBy(3);
                settings.leadership.retryPeriod = Duration.ofMillis(500);
            }
        }

        @On.Create("kopfexamples")
        public String create() {
            return "handled by " + System.getenv(REPLICA);
        }
    }

    /** One operator process, its log, and its endpoints as it logged them. */
    private record Replica(String name, Process process, Path log) {
        String output() throws IOException {
            return Files.readString(log);
        }

        boolean leads() throws IOException {
            return output().contains(ACQUIRED);
        }

        int port(String endpoint) throws IOException {
            Matcher matcher = Pattern.compile(Pattern.quote(endpoint) + " at http://[^:]+:(\\d+)/").matcher(output());
            assertThat(matcher.find()).as(name + " logs where its " + endpoint + " are").isTrue();
            return Integer.parseInt(matcher.group(1));
        }

        HttpResponse<String> get(String endpoint, String path) throws IOException, InterruptedException {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(endpoint) + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        /** A sample of the Lease's metric, e.g. {@code kopf4j_leader}, with more labels if given; NaN if absent. */
        double metric(String name, String lease, String... labels) throws IOException, InterruptedException {
            String body = get("Metrics", "/metrics").body();
            List<String> wanted = new ArrayList<>(List.of(labels));
            wanted.add("lease=\"" + lease + "\"");
            return body.lines().filter(line -> line.startsWith(name + "{") && wanted.stream().allMatch(line::contains))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                    .findFirst().orElse(Double.NaN);
        }
    }

    @TempDir
    Path dir;
    private final List<Replica> replicas = new ArrayList<>();

    @AfterEach
    void killReplicas() throws InterruptedException {
        for (Replica replica : replicas) {
            replica.process().destroyForcibly();
            replica.process().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Starts a replica with leader election, the Lease in the test's namespace (the one -n namespace). */
    private Replica start(OperatorFixture fixture, String name, Integer leaseSeconds) throws Exception {
        Map<String, String> environment = new HashMap<>(Map.of(REPLICA, name));
        if (!DEFAULT_TIMINGS) {
            environment.put(LEASE_SECONDS, leaseSeconds.toString());
        }
        Path log = dir.resolve(name + ".log");
        Process process = fixture.runInOwnJvm(log, environment, Handlers.class, "-v", "--leader-election",
                "--health-probe-bind-address", "127.0.0.1:0", "--metrics-bind-address", "127.0.0.1:0");
        Replica replica = new Replica(name, process, log);
        replicas.add(replica);
        return replica;
    }

    /** The first replica leads (it starts alone), the second stands by; one object handled by the leader. */
    private List<Replica> leaderAndStandby(OperatorFixture fixture, int leaseSeconds) throws Exception {
        Replica leader = start(fixture, "replica-a", leaseSeconds);
        await().atMost(WAIT).until(leader::leads);
        Replica standby = start(fixture, "replica-b", leaseSeconds);
        await().atMost(WAIT).until(() -> standby.output().contains("is held by"));
        fixture.examples().create("first", Map.of());
        await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("first"))
                .containsEntry("create", "handled by replica-a"));
        return List.of(leader, standby);
    }

    @Test
    void oneReplicaHandlesTheStandbyIsReadyAndTakesOverWhenTheLeaderIsKilled(LocalCluster cluster,
                                                                            TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        List<Replica> pair = leaderAndStandby(fixture, LEASE_SECONDS_SHORT);
        Replica leader = pair.get(0);
        Replica standby = pair.get(1);
        assertThat(standby.get("Health probes", "/readyz?verbose").statusCode()).as("a standby is ready").isEqualTo(200);
        String lease = namespace.name() + "/kopf4j-leader";
        assertThat(standby.metric("kopf4j_leader", lease)).isZero();
        assertThat(leader.metric("kopf4j_leader", lease)).isOne();
        assertThat(leader.metric("kopf4j_leadership_changes_total", lease, "change=\"acquired\"")).isOne();

        long killed = System.nanoTime();
        leader.process().destroyForcibly();   // SIGKILL: it neither releases the Lease nor stops handling by itself
        fixture.examples().create("second", Map.of());
        await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("second"))
                .containsEntry("create", "handled by replica-b"));
        System.out.printf("Leader election: hand-over after SIGKILL in %.1f s%n", (System.nanoTime() - killed) / 1e9);

        // The successor has listed both objects by now: it handled the new one only, and never while standing by.
        String output = standby.output();
        assertThat(count(output, "Handler 'create' succeeded.")).isOne();
        assertThat(output.indexOf(fixture.about("second") + "Handler 'create' succeeded.")).isGreaterThan(output.indexOf(ACQUIRED));
        assertThat(standby.metric("kopf4j_leader", lease)).isOne();
    }

    @Test
    void aGracefulStopReleasesTheLeaseAndTheStandbyTakesOverAtOnce(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        // A two-minute lease: a hand-over within the leader's exit (30 s at most) and 40 s after it can only
        // come from the release.
        List<Replica> pair = leaderAndStandby(fixture, 120);
        Replica leader = pair.get(0);
        Replica standby = pair.get(1);

        long stopped = System.nanoTime();
        leader.process().destroy();   // SIGTERM: a graceful stop
        assertThat(leader.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        fixture.examples().create("second", Map.of());
        await().atMost(Duration.ofSeconds(40)).untilAsserted(() -> assertThat(fixture.examples().status("second"))
                .containsEntry("create", "handled by replica-b"));
        System.out.printf("Leader election: hand-over after SIGTERM in %.1f s%n", (System.nanoTime() - stopped) / 1e9);
        assertThat(leader.output()).contains("Released the leader Lease " + namespace.name() + "/kopf4j-leader");
        assertThat(leader.process().exitValue()).isZero();
        assertThat(count(standby.output(), "Handler 'create' succeeded.")).isOne();
    }

    @Test
    void aLeaderThatLosesTheLeasePausesAtOnceLivesOnAndLeadsAgain(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        Replica leader = start(fixture, "replica-a", LEASE_SECONDS_SHORT);
        await().atMost(WAIT).until(leader::leads);

        // Another candidate (not a kopf4j one) takes the Lease over, as if the leader had been cut off.
        await().atMost(WAIT).ignoreExceptions().until(() -> cluster.client().resources(Lease.class)
                .inNamespace(namespace.name()).withName("kopf4j-leader").edit(lease -> {
                    lease.getSpec().setHolderIdentity("intruder");
                    lease.getSpec().setRenewTime(ZonedDateTime.now());
                    return lease;
                }) != null);
        await().atMost(WAIT).until(() -> leader.output().contains("Lost the leader Lease"));
        fixture.examples().create("during", Map.of());

        // The intruder never renews: its lease expires and the replica leads again, then handles the object.
        await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("during"))
                .containsEntry("create", "handled by replica-a"));
        String output = leader.output();
        int lost = output.indexOf("Lost the leader Lease");
        int regained = output.indexOf(ACQUIRED, lost);
        assertThat(regained).as("acquired again after the loss").isGreaterThan(lost);
        assertThat(output.indexOf(fixture.about("during") + "Handler 'create' succeeded.")).isGreaterThan(regained);
        assertThat(leader.metric("kopf4j_leadership_changes_total", namespace.name() + "/kopf4j-leader",
                "change=\"lost\"")).isOne();
        assertThat(leader.process().isAlive()).isTrue();
    }
}
