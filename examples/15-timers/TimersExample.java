import io.kopf4j.Spec;
import io.kopf4j.Timer;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;

/**
 * Kopf's example 15: two timers per KopfExample, after the object has been quiet for a while.
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/15-timers/TimersExample.java
 *   kubectl apply -f examples/obj.yaml
 */
public class TimersExample {
    /** Every 2 seconds, once the object has had no essential change for 5 seconds. */
    @Timer(value = "kopfexamples", idle = 5, interval = 2)
    public void everyFewSecondsSync(Spec spec, Logger logger) {
        logger.info("Ping from a sync timer: field={}", spec.get("field"));
    }

    /** Every 4 seconds, once the object has had no essential change for 10 seconds; async. */
    @Timer(value = "kopfexamples", idle = 10, interval = 4)
    public CompletableFuture<Void> everyFewSecondsAsync(Spec spec, Logger logger) {
        return CompletableFuture.runAsync(() -> logger.info("Ping from an async timer: field={}", spec.get("field")));
    }
}
