package io.kopf4j.internal.reactor.processing;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.internal.clients.ApiErrors;
import io.kopf4j.internal.reactor.queueing.Pressure;
import io.kopf4j.internal.structs.DurationTexts;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import org.slf4j.Logger;

/**
 * Kopf's throttling of one object after an unexpected error in its processing (not in its handlers):
 * sleep the next of {@code settings.queueing.errorDelays} (the last one repeats), waking early for
 * newer events; events that arrive while it lasts are taken but not processed; the next event after
 * it ends is processed normally, and a success starts the delays afresh. A Java {@link Error} (a
 * filter's callback that recursed too deep) is throttled as any exception, as Kopf does with any
 * Python exception; only an {@link OutOfMemoryError} is not caught, and stops the operator.
 */
final class Throttler {
    private Iterator<Duration> delays;
    private Duration lastUsed;
    private Instant activeUntil;

    /**
     * Before processing an event: sleeps out an active throttling (waking for newer events).
     *
     * @return whether the event may be processed; false while throttling lasts
     */
    boolean admits(Pressure pressure, Logger logger) throws InterruptedException {
        sleepOut(pressure, logger);
        return activeUntil == null;
    }

    /** The event was processed without an unexpected error: the delays start afresh next time. */
    void succeeded() {
        delays = null;
        lastUsed = null;
    }

    /** The event's processing failed: throttles for the next delay, and sleeps it out. */
    void failed(Throwable error, List<Duration> configured, Pressure pressure, Logger logger)
            throws InterruptedException {
        if (delays == null) {
            delays = configured.iterator();
        }
        Duration delay = delays.hasNext() ? delays.next() : lastUsed;
        if (delay == null) {
            logUnexpected(logger, "Processing failed due to an unexpected error: {}", error);
            return;
        }
        lastUsed = delay;
        activeUntil = Instant.now().plus(delay);
        logUnexpected(logger, "Throttling for " + DurationTexts.seconds(delay) + " seconds due to an unexpected error: {}",
                error);
        sleepOut(pressure, logger);
    }

    /**
     * An API error that the retries did not cure is logged by its root cause, its trace at debug; a
     * framework error (a malformed object, a bug) with its trace, as Kopf's {@code logger.exception}.
     */
    private static void logUnexpected(Logger logger, String message, Throwable error) {
        if (error instanceof KubernetesClientException) {
            logger.error(message, ApiErrors.summary(error, null));
            logger.debug("The API error in full:", error);
        } else {
            logger.error(message, error.toString(), error);
        }
    }

    private void sleepOut(Pressure pressure, Logger logger) throws InterruptedException {
        if (activeUntil != null && pressure.sleep(Duration.between(Instant.now(), activeUntil)) == null) {
            activeUntil = null;
            logger.info("Throttling is over. Switching back to normal operations.");
        }
    }
}
