import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Timer;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The timer benchmark's operator (bench/run-timers.sh, io.kopf4j.bench.TimerBenchmark): a timer
 * every second on each KopfExample that records how late it runs, and a probe on Kopf's liveness
 * endpoint that reports those lags and starts afresh. Each run's {@code Timer 'tick' succeeded.} is
 * posted as an Event (counted into one Event per object; add bench/BenchHandlersQuiet.java to turn
 * posting of logger lines off):
 *
 *   ./kopf4j run -n bench --liveness=http://127.0.0.1:8081/healthz bench/BenchTimers.java
 *   curl -s http://127.0.0.1:8081/healthz
 *   {"lags":{"runs":30012,"seconds":30.0,"dropped":0,"p50":1.2,"p90":3.4,"p99":9.8,"max":15.1}}
 *
 * A run's lag is the gap since the same object's previous run less the 1-s interval, as Kopf's
 * timer benchmark measures it (kopf4j's interval counts from the end of a run, so the gap also
 * holds the run's own microseconds). The lags go to an array allocated once, so that recording
 * allocates nothing and the operator's RSS shows what the timers cost, not the measurement.
 */
public class BenchTimers {
    private static final long INTERVAL_NANOS = Duration.ofSeconds(1).toNanos();
    /** 1 MiB: 1,000 timers' lags for 4 minutes between two readings; the runs beyond are counted as dropped. */
    private static final int CAPACITY = 1 << 18;
    private static final long NEVER = Long.MIN_VALUE;

    private final Map<String, AtomicLong> previousRun = new ConcurrentHashMap<>();   // by uid: nanoTime
    private final int[] lagMicros = new int[CAPACITY];                               // guarded by this
    private int lags;                                                                // guarded by this
    private long runs;                                                               // guarded by this
    private long dropped;                                                            // guarded by this
    private long since = System.nanoTime();                                          // guarded by this

    /** Results of each reading fresh, not the 10-s cache's (the readings are 30 s apart anyway). */
    @On.Startup
    public void uncachedProbes(OperatorSettings settings) {
        settings.probes.livenessCache = Duration.ZERO;
    }

    @Timer(value = "kopfexamples", interval = 1)
    public void tick(String uid) {
        long now = System.nanoTime();
        AtomicLong previous = previousRun.get(uid);
        if (previous == null) {   // the object's first run; computeIfAbsent would lock its bin on every run
            previous = previousRun.computeIfAbsent(uid, key -> new AtomicLong(NEVER));
        }
        long before = previous.getAndSet(now);
        record(before == NEVER ? NEVER : now - before - INTERVAL_NANOS);
    }

    private synchronized void record(long lagNanos) {
        runs++;
        if (lagNanos == NEVER) {
            return;   // an object's first run has no gap
        }
        if (lags < lagMicros.length) {
            lagMicros[lags++] = Math.clamp(lagNanos / 1_000, Integer.MIN_VALUE, Integer.MAX_VALUE);
        } else {
            dropped++;
        }
    }

    /** The lags since the previous reading, in milliseconds, then a fresh start. */
    @On.Probe
    public Map<String, Object> lags() {
        int[] sorted;
        long counted;
        long lost;
        double seconds;
        synchronized (this) {   // only the copy under the lock: the timers wait for no sort
            long now = System.nanoTime();
            sorted = Arrays.copyOf(lagMicros, lags);
            counted = runs;
            lost = dropped;
            seconds = (now - since) / 1e9;
            runs = 0;
            lags = 0;
            dropped = 0;
            since = now;
        }
        Arrays.sort(sorted);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("runs", counted);
        result.put("seconds", seconds);
        result.put("dropped", lost);
        if (sorted.length > 0) {
            result.put("p50", percentileMillis(sorted, 0.50));
            result.put("p90", percentileMillis(sorted, 0.90));
            result.put("p99", percentileMillis(sorted, 0.99));
            result.put("max", sorted[sorted.length - 1] / 1000.0);
        }
        return result;
    }

    /** Nearest rank, as the benchmark's Percentiles (a handler file cannot use the bench module's classes). */
    private static double percentileMillis(int[] sorted, double quantile) {
        int rank = (int) Math.ceil(quantile * sorted.length);
        return sorted[Math.clamp(rank - 1, 0, sorted.length - 1)] / 1000.0;
    }
}
