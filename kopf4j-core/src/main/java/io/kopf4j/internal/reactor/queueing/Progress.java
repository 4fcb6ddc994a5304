package io.kopf4j.internal.reactor.queueing;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The operator's work at a glance, kept up to date by the workers so that health checks read it in
 * constant time: how many events wait for their object's worker, and when an event was last processed.
 */
public final class Progress {
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong lastProcessed = new AtomicLong(System.nanoTime());

    void queued() {
        waiting.incrementAndGet();
    }

    void taken(int events) {
        waiting.addAndGet(-events);
    }

    void processed() {
        lastProcessed.set(System.nanoTime());
    }

    /** Events received but not yet taken by their object's worker. */
    public int waiting() {
        return Math.max(0, waiting.get());
    }

    public Duration sinceLastProcessed() {
        return Duration.ofNanos(System.nanoTime() - lastProcessed.get());
    }
}
