import io.kopf4j.Daemon;
import io.kopf4j.DaemonStopped;
import java.time.Duration;

/**
 * The daemon benchmark's operator (bench/run-daemons.sh, io.kopf4j.bench.DaemonBenchmark): one
 * sync daemon per KopfExample that does nothing but wait for its stop, waking every 10 s as a
 * real daemon's loop would. Each costs a parked virtual thread; each wake-up a few microseconds.
 *
 *   ./kopf4j run -n bench --metrics-bind-address=127.0.0.1:8080 bench/BenchDaemons.java bench/BenchHandlersQuiet.java
 */
public class BenchDaemons {
    @Daemon("kopfexamples")
    public void accompany(DaemonStopped stopped) {
        while (!stopped.isSet()) {
            stopped.await(Duration.ofSeconds(10));   // returns at once when the object is deleted
        }
    }
}
