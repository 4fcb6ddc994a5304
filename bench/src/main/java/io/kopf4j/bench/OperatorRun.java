package io.kopf4j.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * One operator's run on a fresh LocalCluster: an object {@code ex-startup} is created before the
 * operator's process is spawned, and the start-up lasts until the operator has handled it; then N
 * other objects are created, changed and deleted, phase after phase, each phase followed by the
 * operator's settling (until it has made no request for two polls in a row) and, after the create
 * phase, by some idleness before its RSS is read; after the delete phase, a longer rest (beyond
 * the launcher's periodic collection) before the RSS is read again, to show whether the memory the
 * load took is given back. Prints each figure as it is measured.
 *
 * <pre>{@code
 * RunResult result = OperatorRun.run(root, commands, OperatorKind.KOPF4J, 1000, logDirectory);
 * }</pre>
 */
final class OperatorRun {
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration PHASE_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration IDLENESS = Duration.ofSeconds(5);
    /** Twice the launcher's {@code -XX:G1PeriodicGCInterval}: a collection at rest has run, and given back what it frees. */
    private static final Duration REST = Duration.ofSeconds(30);

    private final OperatorKind kind;
    private final int n;
    private final Examples examples;
    private final ObjectTracker tracker;
    private final OperatorRequests requests;
    private OperatorProcess operator;

    private OperatorRun(OperatorKind kind, int n, BenchCluster cluster) {
        this.kind = kind;
        this.n = n;
        this.examples = cluster.examples();
        this.tracker = cluster.tracker();
        this.requests = cluster.requests();
    }

    /** Runs the operator on a cluster of its own; its output goes to a file in the log directory. */
    static RunResult run(Path root, OperatorCommands commands, OperatorKind kind, int n, Path logDirectory) throws Exception {
        try (BenchCluster cluster = BenchCluster.start(root)) {
            OperatorRun run = new OperatorRun(kind, n, cluster);
            Path log = logDirectory.resolve(kind.label() + "-" + n + "-" + System.currentTimeMillis() + ".log");
            run.print("Kubernetes " + cluster.serverVersion() + "; the operator's output: " + log);
            return run.measure(commands.process(kind, cluster.kubeconfig(), BenchCluster.NAMESPACE), log);
        }
    }

    private RunResult measure(ProcessBuilder command, Path log) throws Exception {
        examples.create(Examples.STARTUP);
        ApiRequests beforeSpawn = requests.now();
        try (OperatorProcess spawned = OperatorProcess.start(command, log)) {
            operator = spawned;
            long startupHandled = operator.await(tracker, "the start-up object", STARTUP_TIMEOUT,
                    objects -> Examples.hasResult(objects.get(Examples.STARTUP), "create", 1));
            double startupSeconds = seconds(startupHandled - operator.spawnedNanos());
            double startupSettle = requests.settle(startupHandled);
            ApiRequests startupRequests = requests.now().minus(beforeSpawn);
            Thread.sleep(IDLENESS);
            double rssAfterStartup = ProcessStats.memoryMiB(operator.pid(), "VmRSS");
            print(String.format(Locale.ROOT, "start-up: %.1f s to the first object handled; requests: %s; settled after %.1f s;"
                    + " idle RSS %.0f MiB", startupSeconds, startupRequests.format(), startupSettle, rssAfterStartup));

            Map<Phase, PhaseResult> phases = new EnumMap<>(Phase.class);
            phases.put(Phase.CREATE, phase(Phase.CREATE, examples::create,
                    objects -> all(i -> Examples.hasResult(objects.get(Examples.name(i)), "create", 1))));
            Thread.sleep(IDLENESS);
            double idleRss = ProcessStats.memoryMiB(operator.pid(), "VmRSS");
            double kibPerObject = (idleRss - rssAfterStartup) * 1024 / n;
            print(String.format(Locale.ROOT, "idle after create: RSS %.0f MiB (%+.1f KiB per object since start-up)", idleRss, kibPerObject));
            phases.put(Phase.UPDATE, phase(Phase.UPDATE, i -> examples.setGeneration(i, 2),
                    objects -> all(i -> Examples.hasResult(objects.get(Examples.name(i)), "update", 2))));
            phases.put(Phase.DELETE, phase(Phase.DELETE, examples::delete,
                    objects -> all(i -> !objects.containsKey(Examples.name(i)))));
            Thread.sleep(REST);
            double restRss = ProcessStats.memoryMiB(operator.pid(), "VmRSS");
            print(String.format(Locale.ROOT, "at rest %d s after the load: RSS %.0f MiB (%+.0f MiB against the idle RSS after start-up)",
                    REST.toSeconds(), restRss, restRss - rssAfterStartup));
            return new RunResult(kind, startupSeconds, startupRequests, startupSettle, rssAfterStartup, idleRss, kibPerObject,
                    restRss, phases);
        }
    }

    private PhaseResult phase(Phase phase, IntConsumer action, Predicate<Map<String, GenericKubernetesResource>> handled)
            throws Exception {
        ApiRequests before = requests.now();
        ApiRequests ownBefore = requests.own();
        double cpuBefore = ProcessStats.cpuSeconds(operator.pid());
        long start = System.nanoTime();
        DriverPool.forEach(n, phase.label(), action);
        long handledAt = operator.await(tracker, phase.label() + " of " + n + " objects", PHASE_TIMEOUT, handled);
        double settle = requests.settle(handledAt);
        ApiRequests operatorRequests = requests.now().minus(before);
        double cpu = ProcessStats.cpuSeconds(operator.pid());
        PhaseResult result = new PhaseResult(seconds(handledAt - start), operatorRequests.dividedBy(n), cpu - cpuBefore, cpu,
                ProcessStats.memoryMiB(operator.pid(), "VmHWM"), settle);
        print(String.format(Locale.ROOT, "%s: %.1f s (%.0f objects/s); requests per object: %s; CPU %.1f s (%.1f s so far);"
                        + " peak RSS %.0f MiB; settled after %.1f s; the operator's requests in all: %s; the benchmark's own: %s",
                phase.label(), result.seconds(), n / result.seconds(), result.requestsPerObject().format(), result.cpuSeconds(),
                cpu, result.peakRssMiB(), settle, operatorRequests.format("%.0f"), requests.own().minus(ownBefore).format("%.0f")));
        return result;
    }

    private boolean all(IntPredicate objectIsDone) {
        return IntStream.range(0, n).allMatch(objectIsDone);
    }

    private void print(String line) {
        System.out.println("[" + kind.label() + " N=" + n + "] " + line);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
