package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sharding on a real API server: three replicas (JVMs of their own, the command line) split the
 * objects, each object's create handler runs exactly once and never on two replicas at once; with
 * one replica SIGKILLed early in the run, the others take its objects over once its Lease has expired.
 * {@code -Dkopf4j.it.shardingObjects=3000} for the full size (docs/performance.md).
 */
@ExtendWith(LocalClusterExtension.class)
class ShardingTest {
    private static final int OBJECTS = Integer.getInteger("kopf4j.it.shardingObjects", 600);
    /** For bench/run-sharding.sh: the first test with 1, 2 or 3 replicas. */
    private static final int REPLICAS = Integer.getInteger("kopf4j.it.shardingReplicas", 3);
    /** Generous: the replicas, the API server and etcd share this machine's cores with the tests. */
    private static final Duration WAIT = Duration.ofSeconds(120 + OBJECTS / 5);
    private static final String DIFF_BASE = "kopf.zalando.org/last-handled-configuration";
    private static final Pattern CALL = Pattern.compile("Create (start|end) of (\\S+) by (\\S+) at (\\S+)\\.$",
            Pattern.MULTILINE);
    private static final Logger LOG = LoggerFactory.getLogger(ShardingTest.class);
    /** How long each create handler takes in the take-over test. */
    private static final Duration HOLD = Duration.ofMillis(200);

    /**
     * The create handler logs its start and end with the replica and the time (one clock: one machine),
     * with {@code HOLD} milliseconds between them if given.
     */
    public static class Handlers {
        private static final Logger CALLS = LoggerFactory.getLogger(Handlers.class);
        private static final String REPLICA = System.getenv("REPLICA");
        private static final long HOLD = Long.parseLong(System.getenv().getOrDefault("HOLD", "0"));

        @On.Startup
        public void fastLeases(OperatorSettings settings) {
            // Short, yet long enough for a shared machine with three operators and an API server on it.
            settings.sharding.leaseDuration = Duration.ofSeconds(8);
            settings.sharding.renewPeriod = Duration.ofSeconds(1);
        }

        @On.Create("kopfexamples")
        public String create(String name) throws InterruptedException {
            CALLS.info("Create start of {} by {} at {}.", name, REPLICA, Instant.now());
            Thread.sleep(HOLD);   // the handler's work
            CALLS.info("Create end of {} by {} at {}.", name, REPLICA, Instant.now());
            return "created by " + REPLICA;
        }
    }

    /** One handler call as logged: its object, its replica, and its start and end (the kill, if it never ended). */
    private record Call(String object, String replica, Instant start, Instant end) {
        boolean overlaps(Call other) {
            return !replica.equals(other.replica) && start.isBefore(other.end) && other.start.isBefore(end);
        }
    }

    /** The replicas' logs, kept for a look after a failure. */
    private Path dir;
    private final Map<String, Process> replicas = new LinkedHashMap<>();

    @BeforeEach
    void logs(TestInfo test) throws IOException {
        dir = Files.createDirectories(Path.of("target", "sharding-logs", test.getTestMethod().orElseThrow().getName()));
        for (String replica : List.of("r1", "r2", "r3")) {
            Files.deleteIfExists(log(replica));
        }
    }

    @AfterEach
    void stopReplicas() throws InterruptedException {
        for (Process replica : replicas.values()) {
            replica.destroyForcibly();
            replica.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void replicasHandleEveryObjectExactlyOnce(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        String[] names = IntStream.rangeClosed(1, REPLICAS).mapToObj(i -> "r" + i).toArray(String[]::new);
        // No --shard-namespace: outside a cluster, the Leases go to the one namespace served (-n).
        startReplicas(fixture, namespace, Map.of(), List.of(), names);
        assertThat(cluster.client().leases().inNamespace(namespace.name())
                .withLabel("kopf4j.dev/shard-group", "it").list().getItems())
                .as("the members' Leases, in the namespace served").hasSize(names.length);
        long started = System.nanoTime();
        Set<String> objects = createObjects(cluster, namespace);
        await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).until(() -> handled(fixture).size() == OBJECTS);
        double seconds = (System.nanoTime() - started) / 1e9;

        List<Call> calls = calls(Map.of());
        Map<String, Long> perObject = calls.stream().collect(Collectors.groupingBy(Call::object, Collectors.counting()));
        assertThat(perObject.keySet()).containsExactlyInAnyOrderElementsOf(objects);
        assertThat(perObject).as("each object's create handler ran exactly once").allSatisfy((name, count) ->
                assertThat(count).as(name).isEqualTo(1));
        Map<String, Long> perReplica = calls.stream().collect(Collectors.groupingBy(Call::replica, Collectors.counting()));
        assertThat(perReplica).as("every replica took a share").containsOnlyKeys(names)
                .allSatisfy((replica, count) -> assertThat(count).isGreaterThan(OBJECTS / REPLICAS / 2));
        LOG.info("Sharding: {} objects handled by {} replica(s) in {} s ({} objects/s); per replica: {}", OBJECTS, REPLICAS,
                "%.1f".formatted(seconds), "%.0f".formatted(OBJECTS / seconds), perReplica);
    }

    @Test
    void aKilledReplicasObjectsAreTakenOverAndNoneIsHandledTwiceAtOnce(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        // Calls that take a while: two replicas handling one object at once would overlap, not miss each other.
        startReplicas(fixture, namespace, Map.of("HOLD", String.valueOf(HOLD.toMillis())),
                List.of("--shard-namespace", namespace.name()), "r1", "r2", "r3");
        // The objects are created meanwhile, so that the victim is killed early, with objects of its own to do.
        ExecutorService creation = Executors.newSingleThreadExecutor();
        Future<Set<String>> creating = creation.submit(() -> createObjects(cluster, namespace));
        creation.shutdown();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> calls(Map.of()).size() >= OBJECTS / 10);

        Process victim = replicas.remove("r2");
        victim.destroyForcibly();   // SIGKILL: its Lease stays until it expires
        victim.waitFor(10, TimeUnit.SECONDS);
        Instant killed = Instant.now();
        Set<String> handledAtKill = handled(fixture);
        assertThat(handledAtKill).as("killed mid-run").hasSizeLessThan(OBJECTS);
        Set<String> names = creating.get();

        await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).until(() -> handled(fixture).size() == OBJECTS);
        Instant takenOver = lineAfter(killed, "Shards: 2 members (r1, r3)");

        List<Call> calls = calls(Map.of("r2", killed));
        Map<String, List<Call>> perObject = calls.stream().collect(Collectors.groupingBy(Call::object));
        assertThat(perObject.keySet()).containsExactlyInAnyOrderElementsOf(names);
        for (List<Call> ofOne : perObject.values()) {
            for (Call call : ofOne) {
                assertThat(ofOne).as("no two replicas at once").noneMatch(call::overlaps);
            }
        }
        // At least once, as Kopf: a handler that ran on the killed replica without its result stored runs again.
        List<String> twice = perObject.entrySet().stream().filter(entry -> entry.getValue().size() > 1)
                .map(Map.Entry::getKey).sorted().toList();
        assertThat(twice).as("only objects the killed replica had not finished ran again")
                .allSatisfy(name -> {
                    assertThat(handledAtKill).doesNotContain(name);
                    assertThat(perObject.get(name)).hasSize(2).anyMatch(call -> call.replica().equals("r2"));
                });
        assertThat(calls.stream().filter(call -> !call.replica().equals("r2")).collect(
                Collectors.groupingBy(Call::object, Collectors.counting())))
                .as("the survivors ran each object at most once").allSatisfy((name, count) -> assertThat(count).isEqualTo(1));

        // A graceful stop releases the Lease: the last one takes over without waiting for its expiry.
        Process leaving = replicas.get("r3");
        Instant stopping = Instant.now();
        leaving.destroy();   // SIGTERM
        assertThat(leaving.waitFor(30, TimeUnit.SECONDS)).isTrue();
        await().atMost(WAIT).until(() -> lineAfter(stopping, "Shards: 1 members (r1)") != null);
        Instant alone = lineAfter(stopping, "Shards: 1 members (r1)");
        LOG.info("Sharding: r2 killed after {} of {} objects; its objects were taken over {} ms after the kill"
                        + " (8 s Leases); {} object(s) ran again (their result was not stored at the kill). r3 stopped"
                        + " gracefully: taken over {} ms after its SIGTERM.",
                handledAtKill.size(), OBJECTS, Duration.between(killed, takenOver).toMillis(), twice.size(),
                Duration.between(stopping, alone).toMillis());
    }

    /** @param environment for the handlers, besides {@code REPLICA} */
    private void startReplicas(OperatorFixture fixture, TemporaryNamespace namespace, Map<String, String> environment,
                               List<String> options, String... names) throws Exception {
        for (String name : names) {
            List<String> args = new ArrayList<>(List.of("--shards", "auto", "--shard-group", "it", "--shard-identity", name));
            args.addAll(options);
            Map<String, String> variables = new HashMap<>(environment);
            variables.put("REPLICA", name);
            replicas.put(name, fixture.runInOwnJvm(log(name), variables, Handlers.class, args.toArray(String[]::new)));
        }
        String agreed = "Shards: " + names.length + " members (" + String.join(", ", names) + ")";
        await().atMost(WAIT).until(() -> replicas.keySet().stream().allMatch(name -> read(log(name)).contains(agreed)));
    }

    private Set<String> createObjects(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        ExecutorService creators = Executors.newFixedThreadPool(8);
        try {
            List<Future<GenericKubernetesResource>> created = IntStream.range(0, OBJECTS)
                    .mapToObj(i -> creators.submit(() -> examples.create("ex-%04d".formatted(i), Map.of("i", i)))).toList();
            Set<String> names = new TreeSet<>();
            for (Future<GenericKubernetesResource> future : created) {
                names.add(future.get().getMetadata().getName());
            }
            return names;
        } finally {
            creators.shutdown();
        }
    }

    /** The objects with the diff-base: their create handler's cycle is complete. */
    private static Set<String> handled(OperatorFixture fixture) {
        return fixture.examples().list().stream()
                .filter(object -> object.getMetadata().getAnnotations() != null
                        && object.getMetadata().getAnnotations().containsKey(DIFF_BASE))
                .map(object -> object.getMetadata().getName()).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Every replica's handler calls; one that never ended ends at its replica's death. */
    private List<Call> calls(Map<String, Instant> deaths) {
        List<Call> calls = new ArrayList<>();
        for (String replica : List.of("r1", "r2", "r3")) {
            Map<String, Instant> starts = new HashMap<>();
            Matcher matcher = CALL.matcher(read(log(replica)));
            while (matcher.find()) {
                Instant at = Instant.parse(matcher.group(4));
                if (matcher.group(1).equals("start")) {
                    starts.put(matcher.group(2), at);
                } else {
                    calls.add(new Call(matcher.group(2), replica, starts.remove(matcher.group(2)), at));
                }
            }
            starts.forEach((object, start) -> calls.add(new Call(object, replica, start,
                    deaths.getOrDefault(replica, Instant.MAX))));
        }
        return calls;
    }

    private static final Pattern LOG_TIME = Pattern.compile("^\\[([-0-9 :,]+)\\]");

    /** When a survivor first logged a line containing {@code text} after {@code after} (by the line's own time), or null. */
    private Instant lineAfter(Instant after, String text) {
        return replicas.keySet().stream().flatMap(name -> read(log(name)).lines())
                .filter(line -> line.contains(text)).map(LOG_TIME::matcher).filter(Matcher::find)
                .map(matcher -> LocalDateTime.parse(matcher.group(1).replace(' ', 'T').replace(',', '.'))
                        .atZone(ZoneId.systemDefault()).toInstant())
                .filter(at -> at.isAfter(after)).min(Instant::compareTo).orElse(null);
    }

    private Path log(String replica) {
        return dir.resolve(replica + ".log");
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
