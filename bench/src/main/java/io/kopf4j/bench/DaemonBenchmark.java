package io.kopf4j.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * The daemon benchmark: kopf4j with one sync daemon per object ({@code bench/BenchDaemons.java};
 * posting of logger lines off, Kopf's default, with {@code bench/BenchHandlersQuiet.java}) on a
 * fresh LocalCluster. After {@code ex-startup} (created before the spawn) has its daemon, it creates
 * N objects on 32 client threads and times until all their daemons run (the operator's
 * {@code kopf4j_daemons_running{kind="daemon"}} reads N + 1) and all carry Kopf's finalizer (the
 * benchmark's own watch); after 5 s idle it reads the operator's RSS and OS threads and its CPU over
 * 30 s; then it deletes the N objects on 32 threads and times the deletions: from the first DELETE
 * to the last DELETED event, per object from its DELETE's answer to its DELETED event, and the
 * operator's requests per object until it settled. Prints a markdown table with the goals.
 *
 * <pre>{@code
 * bench/run-daemons.sh 10000   # java io.kopf4j.bench.DaemonBenchmark <checkout> 10000
 * }</pre>
 */
public final class DaemonBenchmark {
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration PHASE_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration METRICS_POLL = Duration.ofMillis(250);
    private static final Duration IDLENESS = Duration.ofSeconds(5);
    private static final Duration CPU_WINDOW = Duration.ofSeconds(30);
    private static final List<String> HANDLERS = List.of("bench/BenchDaemons.java", "bench/BenchHandlersQuiet.java");

    private final int n;
    private final Kopf4jScenario scenario;
    private final BenchCluster cluster;
    private final OperatorProcess operator;
    private final OperatorEndpoint metrics;
    private final GoalTable table;
    private final Map<String, Object> figures = new LinkedHashMap<>();

    private DaemonBenchmark(Kopf4jScenario scenario, OperatorEndpoint metrics) {
        this.n = scenario.n();
        this.scenario = scenario;
        this.cluster = scenario.cluster();
        this.operator = scenario.operator();
        this.metrics = metrics;
        this.table = new GoalTable("N = " + n + " daemons (bench/BenchDaemons.java, posting of logger lines off)", null);
    }

    public static void main(String[] args) throws Exception {
        OperatorEndpoint metrics = OperatorEndpoint.onFreePort("/metrics");
        try (Kopf4jScenario scenario = Kopf4jScenario.start("daemons", Kopf4jScenario.root(args), Kopf4jScenario.n(args, 10_000),
                List.of("--metrics-bind-address=" + metrics.hostAndPort()), HANDLERS)) {
            DaemonBenchmark benchmark = new DaemonBenchmark(scenario, metrics);
            GoalTable table = benchmark.measure();
            scenario.print("figures written to " + new ResultFile("daemons", scenario.n(), scenario.conditions())
                    .row(benchmark.figures).write(Kopf4jScenario.root(args)));
            System.out.println();
            System.out.println(table.render());
        }
    }

    private GoalTable measure() throws Exception {
        long startup = awaitRunning("the start-up object's daemon", 1, objects -> hasFinalizer(objects, Examples.STARTUP),
                STARTUP_TIMEOUT);
        double startupSeconds = seconds(startup - operator.spawnedNanos());
        scenario.print(format("start-up: %.1f s to ex-startup's daemon", startupSeconds));
        table.figure("start-up s (to ex-startup's daemon)", format("%.1f", startupSeconds));
        figures.put("operator", "kopf4j");
        figures.put("startup_s", startupSeconds);

        long start = System.nanoTime();
        DriverPool.forEach(n, "create", cluster.examples()::create);
        long created = System.nanoTime();
        long running = awaitRunning(n + " objects' daemons", n + 1, objects -> all(i -> hasFinalizer(objects, Examples.name(i))),
                PHASE_TIMEOUT);
        scenario.print(format("create: %d objects created in %.1f s; all daemons running, all finalizers on %.1f s after the"
                + " first POST", n, seconds(created - start), seconds(running - start)));
        table.figure("all daemons running s (from the first POST)", format("%.1f", seconds(running - start)));
        figures.put("all_running_s", seconds(running - start));

        idle();
        deleteAll();
        return table;
    }

    /** RSS and OS threads after some idleness, then the CPU the daemons' wake-ups cost. */
    private void idle() throws IOException, InterruptedException {
        Thread.sleep(IDLENESS);
        double rss = ProcessStats.memoryMiB(operator.pid(), "VmRSS");
        long threads = ProcessStats.threads(operator.pid());
        double cpuBefore = ProcessStats.cpuSeconds(operator.pid());
        long windowStart = System.nanoTime();
        Thread.sleep(CPU_WINDOW);
        double cpuPerSecond = (ProcessStats.cpuSeconds(operator.pid()) - cpuBefore) / seconds(System.nanoTime() - windowStart);
        double rssAtRest = ProcessStats.memoryMiB(operator.pid(), "VmRSS");   // after the collector had time to give memory back
        scenario.print(format("idle: RSS %.0f MiB (%.0f MiB %d s later), %d OS threads; CPU %.3f s per s over %d s", rss,
                rssAtRest, CPU_WINDOW.toSeconds(), threads, cpuPerSecond, CPU_WINDOW.toSeconds()));
        table.atMost("idle RSS MiB", "%.0f", rss, 250)
                .atMost("idle RSS MiB " + CPU_WINDOW.toSeconds() + " s later", "%.0f", rssAtRest, 250)
                .atMost("OS threads (Threads: of /proc/PID/status)", "%.0f", threads, 50)
                .figure("idle CPU s per s", format("%.3f", cpuPerSecond));
        figures.put("rss_mib", rss);
        figures.put("rss_at_rest_mib", rssAtRest);
        figures.put("threads", (double) threads);
        figures.put("idle_cpu_s_per_s", cpuPerSecond);
    }

    private void deleteAll() throws Exception {
        ApiRequests before = cluster.requests().now();
        long[] answered = new long[n];   // each slot written by one client thread, read after they are done
        long start = System.nanoTime();
        DriverPool.forEach(n, "delete", i -> {
            cluster.examples().delete(i);
            answered[i] = System.nanoTime();
        });
        long lastDeleted = operator.await(cluster.tracker(), "the deletion of " + n + " objects", PHASE_TIMEOUT,
                objects -> all(i -> !objects.containsKey(Examples.name(i))));
        double settle = cluster.requests().settle(lastDeleted);
        ApiRequests perObject = cluster.requests().now().minus(before).dividedBy(n);
        Map<String, Long> seenGone = cluster.tracker().deletions();
        Percentiles latency = Percentiles.of(IntStream.range(0, n).filter(i -> seenGone.containsKey(Examples.name(i)))
                .mapToDouble(i -> seconds(seenGone.get(Examples.name(i)) - answered[i])).toArray());
        String operatorMetrics = metrics.get();
        double stillRunning = PrometheusText.sum(operatorMetrics, "kopf4j_daemons_running", Map.of("kind", "daemon"));
        double slowStops = PrometheusText.sum(operatorMetrics, "kopf4j_daemons_stops_total", Map.of("kind", "daemon"));
        double patches = perObject.get(ApiRequests.key("PATCH", "kopfexamples", ""));
        scenario.print(format("delete: all gone %.1f s after the first DELETE; DELETE answered to DELETED p50 %.2f s, p99 %.2f s,"
                        + " max %.2f s (%d objects); requests per object: %s; settled after %.1f s; daemons still running %.0f"
                        + " (ex-startup's); stops that did not end at once %.0f",
                seconds(lastDeleted - start), latency.at(0.5), latency.at(0.99), latency.max(), latency.count(),
                perObject.format(), settle, stillRunning, slowStops));
        table.atMost("all deleted s (first DELETE to last DELETED event)", "%.1f", seconds(lastDeleted - start), 15)
                .figure("DELETE answered to DELETED event p50 / p99 s", format("%.2f / %.2f", latency.at(0.5), latency.at(0.99)))
                .atMost("DELETE answered to DELETED event max s", "%.1f", latency.max(), 15)
                .atMost("operator PATCHes per object (delete; the finalizer's removal only)", "%.4f", patches, 1)
                .figure("operator writes per object (delete)", perObject.objectWrites().format());
        figures.put("all_deleted_s", seconds(lastDeleted - start));
        figures.put("delete_latency_p50_s", latency.at(0.5));
        figures.put("delete_latency_p99_s", latency.at(0.99));
        figures.put("delete_latency_max_s", latency.max());
    }

    /**
     * Waits until the operator's metrics show at least {@code daemons} running and the benchmark's
     * watch shows the objects' finalizers; returns when both held, in {@link System#nanoTime()}.
     */
    private long awaitRunning(String what, int daemons, Predicate<Map<String, GenericKubernetesResource>> finalized,
                              Duration timeout) throws Exception {
        long finalizers = operator.await(cluster.tracker(), what + " (finalizers)", timeout, finalized);
        long running = operator.awaitAtLeast(what + " (kopf4j_daemons_running)", daemons, timeout, METRICS_POLL,
                () -> PrometheusText.sum(metrics.get(), "kopf4j_daemons_running", Map.of("kind", "daemon")));
        return Math.max(finalizers, running);
    }

    private boolean all(IntPredicate objectIsDone) {
        return IntStream.range(0, n).allMatch(objectIsDone);
    }

    private static boolean hasFinalizer(Map<String, GenericKubernetesResource> objects, String name) {
        return Examples.hasFinalizer(objects.get(name), Examples.KOPF_FINALIZER);
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
