package io.kopf4j.reactor.processing;

import io.kopf4j.reactor.queueing.Pressure;
import io.kopf4j.structs.DurationTexts;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import org.slf4j.Logger;

/**
 * Kopf's throttling of one object after an unexpected error in its processing (not in its handlers):
 * sleep the next of {@code settings.queueing.errorDelays} (the last one repeats), waking early for
 * newer events; events that arrive while it lasts are taken but not processed; the next event after
 * it ends is processed normally, and a success starts the delays afresh.
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
    void failed(RuntimeException error, List<Duration> configured, Pressure pressure, Logger logger)
            throws InterruptedException {
        if (delays == null) {
            delays = configured.iterator();
        }
        Duration delay = delays.hasNext() ? delays.next() : lastUsed;
        if (delay == null) {
            logger.error("Processing failed due to an unexpected error: {}", error.toString(), error);
            return;
        }
        lastUsed = delay;
        activeUntil = Instant.now().plus(delay);
        logger.error("Throttling for {} seconds due to an unexpected error: {}", DurationTexts.seconds(delay), error.toString(), error);
        sleepOut(pressure, logger);
    }

    private void sleepOut(Pressure pressure, Logger logger) throws InterruptedException {
        if (activeUntil != null && pressure.sleep(Duration.between(Instant.now(), activeUntil)) == null) {
            activeUntil = null;
            logger.info("Throttling is over. Switching back to normal operations.");
        }
    }
}
