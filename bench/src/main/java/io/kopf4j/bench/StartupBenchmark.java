package io.kopf4j.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The start-up benchmark: N objects already in the cluster when kopf4j starts
 * ({@code bench/BenchHandlers.java}, posting of logger lines off with
 * {@code bench/BenchHandlersQuiet.java}), as after an operator's outage or on its first deployment.
 * It times from the spawn until {@code /readyz} answers 200, until every object has its create
 * handler's result, and until the operator's requests settle (idle); it checks that each object's
 * create handler ran exactly once (the operator's {@code Handler 'create' succeeded.} lines) and
 * counts the requests per object; then the RSS at rest, 5 s and 35 s after settling.
 *
 * <pre>{@code
 * bench/run-startup.sh 10000   # java io.kopf4j.bench.StartupBenchmark <checkout> 10000
 * }</pre>
 */
public final class StartupBenchmark {
    private static final Duration TIMEOUT = Duration.ofMinutes(15);
    private static final Duration READY_POLL = Duration.ofMillis(100);
    private static final Duration IDLENESS = Duration.ofSeconds(5);
    private static final Duration REST = Duration.ofSeconds(30);
    private static final List<String> HANDLERS = List.of("bench/BenchHandlers.java", "bench/BenchHandlersQuiet.java");
    private static final Pattern SUCCEEDED = Pattern.compile("\\[" + BenchCluster.NAMESPACE + "/([^\\]]+)\\] Handler 'create' succeeded\\.");

    private StartupBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        OperatorEndpoint readiness = OperatorEndpoint.onFreePort("/readyz");
        int n = Kopf4jScenario.n(args, 10_000);
        Path root = Kopf4jScenario.root(args);
        long[] prepared = new long[1];
        Kopf4jCommand.FirstStart[] firstStart = new Kopf4jCommand.FirstStart[1];
        try (Kopf4jScenario scenario = Kopf4jScenario.start("startup", root, n,
                List.of("--health-probe-bind-address=" + readiness.hostAndPort()), HANDLERS, cluster -> {
                    firstStart[0] = Kopf4jCommand.firstStart(root, cluster.kubeconfig(), HANDLERS);
                    long start = System.nanoTime();
                    DriverPool.forEach(n, "create", cluster.examples()::create);
                    prepared[0] = System.nanoTime() - start;
                })) {
            scenario.print(firstStart[0].toString());
            scenario.print(format("%d objects created before the spawn in %.1f s", n, seconds(prepared[0])));
            System.out.println();
            System.out.println(measure(scenario, readiness, firstStart[0], root).render());
        }
    }

    private static GoalTable measure(Kopf4jScenario scenario, OperatorEndpoint readiness, Kopf4jCommand.FirstStart firstStart,
                                     Path root) throws Exception {
        int n = scenario.n();
        OperatorProcess operator = scenario.operator();
        BenchCluster cluster = scenario.cluster();
        ApiRequests before = cluster.requests().now();
        long ready = operator.awaitAtLeast("/readyz 200", 1, TIMEOUT, READY_POLL, () -> readiness.isReady() ? 1 : 0);
        long handled = operator.await(cluster.tracker(), "the create handlers of " + n + " objects", TIMEOUT,
                objects -> IntStream.range(0, n).allMatch(i -> Examples.hasResult(objects.get(Examples.name(i)), "create", 1)));
        double settle = cluster.requests().settle(handled);
        ApiRequests perObject = cluster.requests().now().minus(before).dividedBy(n + 1);   // ex-startup is handled too
        double cpu = ProcessStats.cpuSeconds(operator.pid());
        Thread.sleep(IDLENESS);
        double rss = ProcessStats.memoryMiB(operator.pid(), "VmRSS");
        Thread.sleep(REST);
        double rssAtRest = ProcessStats.memoryMiB(operator.pid(), "VmRSS");
        Map<String, Integer> runs = createRuns(scenario.output());
        long once = runs.values().stream().filter(count -> count == 1).count();
        int most = runs.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        scenario.print(format("ready %.1f s after the spawn; all handled %.1f s after it; settled %.1f s later; CPU %.1f s;"
                        + " create handlers run once for %d of %d objects (at most %d times for one); requests per object: %s;"
                        + " RSS %.0f MiB (%.0f MiB %d s later); peak RSS %.0f MiB", seconds(ready - operator.spawnedNanos()),
                seconds(handled - operator.spawnedNanos()), settle, cpu, once, n + 1, most, perObject.format(), rss, rssAtRest,
                REST.toSeconds(), ProcessStats.memoryMiB(operator.pid(), "VmHWM")));
        double peak = ProcessStats.memoryMiB(operator.pid(), "VmHWM");
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("operator", "kopf4j");
        row.put("aot", System.getenv().getOrDefault("KOPF4J_AOT", "").equals("off") ? "off" : "default");
        row.put("ready_s", seconds(ready - operator.spawnedNanos()));
        row.put("handled_s", seconds(handled - operator.spawnedNanos()));
        row.put("idle_s", seconds(handled - operator.spawnedNanos()) + settle);
        row.put("cpu_s", cpu);
        row.put("peak_rss_mib", peak);
        row.put("rss_mib", rss);
        row.put("rss_at_rest_mib", rssAtRest);
        row.put("not_once", (double) (n + 1 - once));
        row.put("first_start_ready_s", firstStart.ready());
        row.put("first_start_exit_s", firstStart.exit());
        row.put("next_start_version_s", firstStart.nextVersion());
        scenario.print("figures written to " + new ResultFile("startup", n, scenario.conditions()).row(row).write(root));
        return new GoalTable("N = " + n + " objects present at start-up (bench/BenchHandlers.java, posting of logger lines off)", null)
                .figure("ready s (spawn to /readyz 200)", format("%.1f", seconds(ready - operator.spawnedNanos())))
                .figure("all handled s (spawn to the last object's result)", format("%.1f", seconds(handled - operator.spawnedNanos())))
                .figure("idle s (spawn to the last request)", format("%.1f", seconds(handled - operator.spawnedNanos()) + settle))
                .atMost("objects whose create handler did not run exactly once", "%.0f", n + 1 - once, 0)
                .figure("operator requests per object", perObject.format())
                .figure("CPU s (spawn to idle)", format("%.1f", cpu))
                .figure("peak RSS MiB", format("%.0f", peak))
                .figure("RSS MiB 5 s after idle / " + (REST.toSeconds() + 5) + " s after", format("%.0f / %.0f", rss, rssAtRest));
    }

    /** How often each object's create handler succeeded, from the operator's log. */
    private static Map<String, Integer> createRuns(String output) {
        Map<String, Integer> runs = new HashMap<>();
        Matcher matcher = SUCCEEDED.matcher(output);
        while (matcher.find()) {
            runs.merge(matcher.group(1), 1, Integer::sum);
        }
        return runs;
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
