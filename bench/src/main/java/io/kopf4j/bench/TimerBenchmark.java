package io.kopf4j.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The timer benchmark: kopf4j with a 1-s timer per object ({@code bench/BenchTimers.java}) on a
 * fresh LocalCluster, each run's {@code Timer 'tick' succeeded.} posted as an Event (kopf4j's
 * default; {@code KOPF4J_BENCH_POSTING=off} adds {@code bench/BenchHandlersQuiet.java}, Kopf's
 * default). After {@code ex-startup} (created before the spawn) has its timer, it creates N objects
 * on 32 client threads, waits until all N + 1 timers run and together run about N + 1 times a
 * second, reads the probe once to discard the warm-up, waits 30 s and reads it again: the lag
 * percentiles and runs/s of the window, beside the operator's CPU cores over it and its RSS, and
 * kopf4j's own {@code kopf4j_timer_lag_seconds} as a cross-check. Then, once every object's Event is
 * posted, the Events' writes (POST, PATCH) over a minute, as the API server counts them, and the
 * operator's warnings. The timer returns nothing, so it causes no
 * PATCHes of the objects. Prints a markdown table with the goals and Kopf 1.44.6's figures.
 *
 * <pre>{@code
 * bench/run-timers.sh 1000   # java io.kopf4j.bench.TimerBenchmark <checkout> 1000
 * }</pre>
 */
public final class TimerBenchmark {
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration PHASE_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration METRICS_POLL = Duration.ofMillis(250);
    /** Three runs of each timer: one late run does not decide whether they are steady. */
    private static final Duration RATE_POLL = Duration.ofSeconds(3);
    /** Of a run a second per timer: each run's gap is the interval plus the run and its lag. */
    private static final double STEADY_SHARE = 0.9;
    private static final Duration WINDOW = Duration.ofSeconds(30);
    /** A whole repeat interval of the Events' counts (settings.posting.repeatInterval). */
    private static final Duration EVENTS_WINDOW = Duration.ofSeconds(60);
    private static final boolean POSTING = !"off".equals(System.getenv("KOPF4J_BENCH_POSTING"));
    private static final List<String> HANDLERS = POSTING ? List.of("bench/BenchTimers.java")
            : List.of("bench/BenchTimers.java", "bench/BenchHandlersQuiet.java");
    private static final String TIMER = "tick";

    private final int n;
    private final Kopf4jScenario scenario;
    private final OperatorProcess operator;
    private final OperatorEndpoint metrics;
    private final OperatorEndpoint liveness;
    private final Map<String, Object> figures = new LinkedHashMap<>();

    private TimerBenchmark(Kopf4jScenario scenario, OperatorEndpoint metrics, OperatorEndpoint liveness) {
        this.n = scenario.n();
        this.scenario = scenario;
        this.operator = scenario.operator();
        this.metrics = metrics;
        this.liveness = liveness;
    }

    public static void main(String[] args) throws Exception {
        OperatorEndpoint metrics = OperatorEndpoint.onFreePort("/metrics");
        OperatorEndpoint liveness = OperatorEndpoint.onFreePort("/healthz");
        try (Kopf4jScenario scenario = Kopf4jScenario.start("timers", Kopf4jScenario.root(args), Kopf4jScenario.n(args, 1000),
                List.of("--metrics-bind-address=" + metrics.hostAndPort(), "--liveness=" + liveness.uri()), HANDLERS)) {
            TimerBenchmark benchmark = new TimerBenchmark(scenario, metrics, liveness);
            GoalTable table = benchmark.measure();
            scenario.print("figures written to " + new ResultFile("timers", scenario.n(), scenario.conditions())
                    .row(benchmark.figures).write(Kopf4jScenario.root(args)));
            System.out.println();
            System.out.println(table.render());
        }
    }

    private GoalTable measure() throws Exception {
        operator.await(scenario.cluster().tracker(), "the start-up object's finalizer", STARTUP_TIMEOUT,
                objects -> Examples.hasFinalizer(objects.get(Examples.STARTUP), Examples.KOPF_FINALIZER));
        long startup = operator.awaitAtLeast("the start-up object's timer", 1, STARTUP_TIMEOUT, METRICS_POLL, this::timersRunning);
        scenario.print(format("start-up: %.1f s to ex-startup's timer", seconds(startup - operator.spawnedNanos())));

        ApiRequests beforeCreate = scenario.cluster().requests().now();
        long start = System.nanoTime();
        DriverPool.forEach(n, "create", scenario.cluster().examples()::create);
        long created = System.nanoTime();
        long running = operator.awaitAtLeast((n + 1) + " timers running", n + 1, PHASE_TIMEOUT, METRICS_POLL, this::timersRunning);
        long steady = operator.awaitAtLeast("about " + (n + 1) + " runs/s", STEADY_SHARE * (n + 1), PHASE_TIMEOUT, RATE_POLL,
                runsPerSecond());
        scenario.print(format("create: %d objects created in %.1f s; all timers running after %.1f s, steady after %.1f s",
                n, seconds(created - start), seconds(running - start), seconds(steady - start)));

        TimerLags.parse(liveness.get());   // the warm-up's lags, discarded; the probe starts afresh
        long windowStart = System.nanoTime();
        double cpuBefore = ProcessStats.cpuSeconds(operator.pid());
        TimerLagMetrics metricsBefore = TimerLagMetrics.read(metrics.get(), TIMER);
        Thread.sleep(WINDOW);
        TimerLags lags = TimerLags.parse(liveness.get());
        double cores = (ProcessStats.cpuSeconds(operator.pid()) - cpuBefore) / seconds(System.nanoTime() - windowStart);
        TimerLagMetrics lagMetrics = TimerLagMetrics.read(metrics.get(), TIMER).minus(metricsBefore);
        double rss = ProcessStats.memoryMiB(operator.pid(), "VmRSS");
        scenario.print(format("window of %.1f s: %d runs (%.1f/s), lag p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms"
                        + " (%d lags dropped); CPU %.3f cores; RSS %.0f MiB; kopf4j_timer_lag_seconds: %.0f runs, mean %.1f ms,"
                        + " p99 at most %.1f ms",
                lags.seconds(), lags.runs(), lags.runsPerSecond(), lags.p50Ms(), lags.p90Ms(), lags.p99Ms(), lags.maxMs(),
                lags.dropped(), cores, rss, lagMetrics.count(), lagMetrics.meanSeconds() * 1000,
                lagMetrics.quantileUpperBound(0.99) * 1000));

        EventWindow events = measureEvents(beforeCreate, start);
        scenario.print(format("Event writes (the API server's count): every object's Event posted by %.1f s after the first"
                        + " creation (looked for after the lag window); in the %.1f s after: %s, %.1f/s, %.2f per object per minute; the operator's warnings and"
                        + " errors since its start: %d", events.postedSeconds(), events.seconds(), events.writes().format("%.0f"),
                events.perSecond(), events.perObjectMinute(n + 1), events.warnings()));

        figures.put("operator", "kopf4j");
        figures.put("posting", POSTING ? "on" : "off");
        figures.put("lag_p50_ms", lags.p50Ms());
        figures.put("lag_p90_ms", lags.p90Ms());
        figures.put("lag_p99_ms", lags.p99Ms());
        figures.put("lag_max_ms", lags.maxMs());
        figures.put("runs_per_s", lags.runsPerSecond());
        figures.put("cpu_cores", cores);
        figures.put("rss_mib", rss);
        return new GoalTable("N = " + n + " timers at 1 s, each run's lag over " + WINDOW.toSeconds()
                + " s (bench/BenchTimers.java, posting of logger lines " + (POSTING ? "on" : "off") + ")",
                "Kopf 1.44.6, 1,000 timers")
                .figure("lag p50 ms", format("%.1f", lags.p50Ms()), "8")
                .figure("lag p90 ms", format("%.1f", lags.p90Ms()), "39")
                .atMost("lag p99 ms", "%.1f", lags.p99Ms(), 20, "102")
                .figure("lag max ms", format("%.1f", lags.maxMs()), "132")
                .figure("runs/s (" + (n + 1) + " timers, ex-startup's too)", format("%.0f", lags.runsPerSecond()), "")
                .atMost("operator CPU cores", "%.2f", cores, 0.15, "0.58")
                .atMost("operator RSS MiB", "%.0f", rss, 90, "90 MB")
                .figure("kopf4j_timer_lag_seconds: mean / p99 at most ms",
                        format("%.1f / %.1f", lagMetrics.meanSeconds() * 1000, lagMetrics.quantileUpperBound(0.99) * 1000))
                .figure("Event writes/s over " + format("%.0f", events.seconds()) + " s (POST, PATCH)",
                        format("%.1f (%s)", events.perSecond(), events.writes().format("%.0f")))
                // Rounded as shown: an object's writes are a minute apart, so the window's edges may hold one twice.
                .atMost("Event writes per object per minute", "%.2f", Math.round(events.perObjectMinute(n + 1) * 100) / 100.0, 1)
                .atMost("operator warnings and errors", "%.0f", events.warnings(), 0);
    }

    /**
     * The Events' writes (POST, PATCH) over {@link #EVENTS_WINDOW}, as the API server counts them, from
     * the moment every created object's Event is posted (its first line's POST), so that the window
     * holds the steady state's counts and no first POSTs; then the operator's warnings so far.
     */
    private EventWindow measureEvents(ApiRequests beforeCreate, long start) throws Exception {
        OperatorRequests requests = scenario.cluster().requests();
        long posted = POSTING ? operator.awaitAtLeast("an Event posted for each object", n, PHASE_TIMEOUT, RATE_POLL,
                () -> requests.now().minus(beforeCreate).get("POST events")) : System.nanoTime();
        long windowStart = System.nanoTime();
        ApiRequests before = requests.now();
        Thread.sleep(EVENTS_WINDOW);
        ApiRequests writes = requests.now().minus(before).eventWrites();
        return new EventWindow(seconds(posted - start), writes, seconds(System.nanoTime() - windowStart), scenario.warnings());
    }

    /** The Events' writes over {@code seconds}, every object's Event posted {@code postedSeconds} after the creations began. */
    private record EventWindow(double postedSeconds, ApiRequests writes, double seconds, long warnings) {
        double perSecond() {
            return writes.total() / seconds;
        }

        double perObjectMinute(int objects) {
            return writes.total() / objects / (seconds / 60);
        }
    }

    private double timersRunning() throws IOException, InterruptedException {
        return PrometheusText.sum(metrics.get(), "kopf4j_daemons_running", Map.of("kind", "timer"));
    }

    /** A reading of the timers' runs per second since the previous reading (from kopf4j_timer_lag_seconds_count). */
    private OperatorProcess.Reading runsPerSecond() throws IOException, InterruptedException {
        double[] lastCount = {TimerLagMetrics.read(metrics.get(), TIMER).count()};
        long[] lastAt = {System.nanoTime()};
        return () -> {
            long now = System.nanoTime();
            if (now - lastAt[0] < RATE_POLL.toNanos() / 2) {
                return 0;   // awaitAtLeast reads at once: too soon for a rate
            }
            double count = TimerLagMetrics.read(metrics.get(), TIMER).count();
            double perSecond = (count - lastCount[0]) / seconds(now - lastAt[0]);
            lastCount[0] = count;
            lastAt[0] = now;
            return perSecond;
        };
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
