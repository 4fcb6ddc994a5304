package io.kopf4j.internal.reactor.queueing;

import java.time.Duration;

/**
 * Kopf's stream pressure for one object: newer events are waiting. Sleeps taken while processing an
 * object (consistency, delayed handlers, throttling) end early when it rises, so that the newest
 * state is processed at once.
 */
@FunctionalInterface
public interface Pressure {
    /** Never rises: for processing outside a queue (tests, one-off calls). */
    Pressure NONE = new Pressure() {
        @Override
        public Duration sleep(Duration duration) throws InterruptedException {
            if (!duration.isNegative() && !duration.isZero()) {
                Thread.sleep(duration);
            }
            return null;
        }
    };

    /**
     * Sleeps for the duration or until newer events arrive.
     *
     * @return null if slept in full; the time left unslept if woken by a newer event
     */
    Duration sleep(Duration duration) throws InterruptedException;
}
