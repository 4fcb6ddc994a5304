import io.kopf4j.Daemon;
import io.kopf4j.DaemonStopped;
import io.kopf4j.Patch;
import io.kopf4j.Spec;
import io.kopf4j.TemporaryError;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * Kopf's example 14: two daemons per KopfExample, one sync and one async.
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/14-daemons/DaemonsExample.java
 *   kubectl apply -f examples/obj.yaml     # then: kubectl delete -f examples/obj.yaml
 */
public class DaemonsExample {
    private static final ScheduledExecutorService TICKS = Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().factory());

    /**
     * A sync daemon runs on its own virtual thread and checks its stop flag. It fails 3 times (each
     * attempt's patch is written), then pings every 5 seconds for 30 seconds, then ends for good.
     */
    @Daemon(value = "kopfexamples", backoff = 3)
    public void backgroundSync(DaemonStopped stopped, Spec spec, Logger logger, int retry, Patch patch) {
        if (retry < 3) {
            patch.status().put("message", "Failed " + (retry + 1) + " times.");
            throw new TemporaryError("Simulated failure.", Duration.ofSeconds(1));
        }
        Instant started = Instant.now();
        while (!stopped.isSet() && Duration.between(started, Instant.now()).toSeconds() <= 30) {
            logger.info("=> Ping from a sync daemon: field={}, retry={}", spec.get("field"), retry);
            stopped.await(Duration.ofSeconds(5));
        }
        patch.status().put("message", "Accompanying is finished.");
    }

    /**
     * An async daemon returns a future; it runs until it is cancelled: 1 second after its object
     * is deleted (cancellationBackoff), given 0.5 seconds more to end (cancellationTimeout).
     */
    @Daemon(value = "kopfexamples", backoff = 3, cancellationBackoff = 1.0, cancellationTimeout = 0.5,
            annotations = "someannotation=somevalue")
    public CompletableFuture<Void> backgroundAsync(Spec spec, Logger logger, int retry) {
        if (retry < 3) {
            throw new TemporaryError("Simulated failure.", Duration.ofSeconds(1));
        }
        CompletableFuture<Void> forever = new CompletableFuture<>();
        ScheduledFuture<?> pings = TICKS.scheduleAtFixedRate(
                () -> logger.info("=> Ping from an async daemon: field={}", spec.get("field")), 0, 5, TimeUnit.SECONDS);
        forever.whenComplete((result, error) -> pings.cancel(false));
        return forever;
    }
}
