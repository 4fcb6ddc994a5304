package io.kopf4j.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kopf4j.testing.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * One operator's run on a fresh LocalCluster: an object {@code ex-startup} is created before the
 * operator's process is spawned, and the start-up lasts until the operator has handled it; then N
 * other objects are created, changed and deleted, phase after phase, each phase followed by the
 * operator's settling (until it has made no request for two polls in a row) and, after the create
 * phase, by some idleness before its RSS is read. Prints each figure as it is measured.
 *
 * <pre>{@code
 * RunResult result = OperatorRun.run(root, OperatorKind.KOPF4J, 1000, logDirectory);
 * }</pre>
 */
final class OperatorRun {
    private static final String NAMESPACE = "bench";
    private static final String STARTUP_OBJECT = "ex-startup";
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration PHASE_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration OPERATOR_CHECK = Duration.ofSeconds(1);
    private static final Duration SETTLE_POLL = Duration.ofMillis(500);
    private static final Duration SETTLE_LIMIT = Duration.ofMinutes(2);
    private static final Duration IDLENESS = Duration.ofSeconds(5);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final int DRIVER_THREADS = 32;

    private final OperatorKind kind;
    private final int n;
    private final KubernetesClient client;
    private final DriverRequests driver;
    private final NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> examples;
    private final ObjectTracker tracker;
    private Process operator;

    private OperatorRun(OperatorKind kind, int n, KubernetesClient client, DriverRequests driver, ObjectTracker tracker) {
        this.kind = kind;
        this.n = n;
        this.client = client;
        this.driver = driver;
        this.examples = examples(client);
        this.tracker = tracker;
    }

    /** Runs the operator on a cluster of its own; its output goes to a file in the log directory. */
    static RunResult run(Path root, OperatorKind kind, int n, Path logDirectory) throws Exception {
        try (LocalCluster cluster = LocalCluster.start()) {
            cluster.apply(root.resolve("examples/crd.yaml"));
            DriverRequests driver = new DriverRequests();
            try (KubernetesClient client = driver.client(cluster.kubeconfig())) {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build()).create();
                try (ObjectTracker tracker = new ObjectTracker(examples(client))) {
                    OperatorRun run = new OperatorRun(kind, n, client, driver, tracker);
                    Path log = logDirectory.resolve(kind.label() + "-" + n + "-" + System.currentTimeMillis() + ".log");
                    run.print("Kubernetes " + cluster.serverVersion() + "; the operator's output: " + log);
                    ProcessBuilder operator = kind.process(root, cluster.kubeconfig(), NAMESPACE)
                            .redirectErrorStream(true).redirectOutput(log.toFile());
                    return run.measure(operator);
                }
            }
        }
    }

    private RunResult measure(ProcessBuilder operatorProcess) throws Exception {
        examples.resource(example(STARTUP_OBJECT)).create();
        ApiRequests beforeSpawn = operatorRequests();
        long spawned = System.nanoTime();
        operator = operatorProcess.start();
        try {
            long startupHandled = awaitHandled("the start-up object", STARTUP_TIMEOUT,
                    objects -> hasResult(objects.get(STARTUP_OBJECT), "create", 1));
            double startupSeconds = seconds(startupHandled - spawned);
            double startupSettle = settle(startupHandled);
            ApiRequests startupRequests = operatorRequests().minus(beforeSpawn);
            Thread.sleep(IDLENESS);
            double rssAfterStartup = ProcessStats.memoryMiB(operator.pid(), "VmRSS");
            print(String.format(Locale.ROOT, "start-up: %.1f s to the first object handled; requests: %s; settled after %.1f s;"
                    + " idle RSS %.0f MiB", startupSeconds, startupRequests.format(), startupSettle, rssAfterStartup));

            Map<Phase, PhaseResult> phases = new EnumMap<>(Phase.class);
            phases.put(Phase.CREATE, phase(Phase.CREATE, i -> examples.resource(example(name(i))).create(),
                    objects -> all(i -> hasResult(objects.get(name(i)), "create", 1))));
            Thread.sleep(IDLENESS);
            double idleRss = ProcessStats.memoryMiB(operator.pid(), "VmRSS");
            double kibPerObject = (idleRss - rssAfterStartup) * 1024 / n;
            print(String.format(Locale.ROOT, "idle after create: RSS %.0f MiB (%+.1f KiB per object since start-up)", idleRss, kibPerObject));
            phases.put(Phase.UPDATE, phase(Phase.UPDATE,
                    // Through a body, not withName(...): fabric8 would GET the object before each PATCH, which
                    // the API server 1.20 even counts as a LIST (kubernetes/kubernetes#95556).
                    i -> examples.resource(example(name(i))).patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"generation\":2}}"),
                    objects -> all(i -> hasResult(objects.get(name(i)), "update", 2))));
            phases.put(Phase.DELETE, phase(Phase.DELETE, i -> examples.withName(name(i)).delete(),
                    objects -> all(i -> !objects.containsKey(name(i)))));
            return new RunResult(kind, startupSeconds, startupRequests, startupSettle, idleRss, kibPerObject, phases);
        } finally {
            stopOperator();
        }
    }

    private PhaseResult phase(Phase phase, IntConsumer action, Predicate<Map<String, GenericKubernetesResource>> handled)
            throws Exception {
        ApiRequests before = operatorRequests();
        ApiRequests ownBefore = driver.snapshot();
        double cpuBefore = ProcessStats.cpuSeconds(operator.pid());
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newFixedThreadPool(DRIVER_THREADS)) {
            List<Future<?>> actions = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                actions.add(pool.submit(() -> action.accept(index)));
            }
            for (Future<?> done : actions) {
                done.get();
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("the benchmark's " + phase.label() + " request failed", e.getCause());
        }
        long handledAt = awaitHandled(phase.label() + " of " + n + " objects", PHASE_TIMEOUT, handled);
        double settle = settle(handledAt);
        ApiRequests requests = operatorRequests().minus(before);
        double cpu = ProcessStats.cpuSeconds(operator.pid());
        PhaseResult result = new PhaseResult(seconds(handledAt - start), requests.dividedBy(n), cpu - cpuBefore, cpu,
                ProcessStats.memoryMiB(operator.pid(), "VmHWM"), settle);
        print(String.format(Locale.ROOT, "%s: %.1f s (%.0f objects/s); requests per object: %s; CPU %.1f s (%.1f s so far);"
                        + " peak RSS %.0f MiB; settled after %.1f s; the operator's requests in all: %s; the benchmark's own: %s",
                phase.label(), result.seconds(), n / result.seconds(), result.requestsPerObject().format(), result.cpuSeconds(),
                cpu, result.peakRssMiB(), settle, requests.format("%.0f"), driver.snapshot().minus(ownBefore).format("%.0f")));
        return result;
    }

    /** Waits for the objects' condition, failing early when the operator has exited. */
    private long awaitHandled(String what, Duration timeout, Predicate<Map<String, GenericKubernetesResource>> condition)
            throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return tracker.await(what, condition, Math.min(deadline, System.nanoTime() + OPERATOR_CHECK.toNanos()));
            } catch (TimeoutException e) {
                if (!operator.isAlive()) {
                    throw new IllegalStateException("the operator exited (code " + operator.exitValue() + ") before " + what);
                }
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }

    /**
     * Polls the operator's requests until two polls in a row show none; returns how long after
     * {@code handledAt} the last one was seen (to the poll's half second).
     */
    private double settle(long handledAt) throws InterruptedException {
        ApiRequests previous = operatorRequests();
        long lastChange = handledAt;
        int quietPolls = 0;
        while (quietPolls < 2 && System.nanoTime() - handledAt < SETTLE_LIMIT.toNanos()) {
            Thread.sleep(SETTLE_POLL);
            ApiRequests current = operatorRequests();
            if (current.equals(previous)) {
                quietPolls++;
            } else {
                quietPolls = 0;
                lastChange = System.nanoTime();
                previous = current;
            }
        }
        return seconds(lastChange - handledAt);
    }

    /** All requests to the followed resources so far, less the benchmark's own. */
    private ApiRequests operatorRequests() {
        return ApiRequests.fromMetrics(client.raw("/metrics")).minus(driver.snapshot());
    }

    private void stopOperator() throws InterruptedException {
        operator.destroy();
        if (!operator.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            operator.destroyForcibly().waitFor();
        }
    }

    private boolean all(IntPredicate objectIsDone) {
        return IntStream.range(0, n).allMatch(objectIsDone);
    }

    private void print(String line) {
        System.out.println("[" + kind.label() + " N=" + n + "] " + line);
    }

    /** The result the benchmark's handlers (and the floor) write: {@code status.<key>.generation}. */
    private static boolean hasResult(GenericKubernetesResource object, String key, int generation) {
        return object != null && object.getAdditionalProperties().get("status") instanceof Map<?, ?> status
                && status.get(key) instanceof Map<?, ?> result && Integer.valueOf(generation).equals(result.get("generation"));
    }

    private static String name(int index) {
        return "ex-" + index;
    }

    private static GenericKubernetesResource example(String name) {
        return new GenericKubernetesResourceBuilder().withApiVersion("kopf.dev/v1").withKind("KopfExample")
                .withNewMetadata().withName(name).endMetadata()
                .addToAdditionalProperties("spec", Map.of("generation", 1)).build();
    }

    private static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> examples(KubernetesClient client) {
        return client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(NAMESPACE);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
