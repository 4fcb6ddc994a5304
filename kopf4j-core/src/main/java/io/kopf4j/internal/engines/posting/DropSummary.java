package io.kopf4j.internal.engines.posting;

import java.time.Duration;
import java.time.Instant;

/**
 * Counts the occurrences dropped because the queue was full, for one warning at most once a
 * minute that says how many, rather than one per drop: the first drop is told at once, the next
 * ones a minute after the previous warning. Not thread-safe; times are passed in.
 *
 * <pre>{@code
 * if (drops.dropped()) { ... wake the poster: a warning may be due ... }
 * long count = drops.warn(now);          // > 0: log it now
 * Instant wake = drops.nextWarning();    // null: nothing to tell
 * }</pre>
 */
final class DropSummary {
    static final Duration INTERVAL = Duration.ofMinutes(1);

    private long dropped;
    private Instant warned;

    /** Counts one drop; true if it is the first since the last warning (so one may be due now). */
    boolean dropped() {
        return dropped++ == 0;
    }

    /** When the next warning is due; null if there was no drop since the last one. */
    Instant nextWarning() {
        return dropped == 0 ? null : warned == null ? Instant.MIN : warned.plus(INTERVAL);
    }

    /** The drops to tell of if a warning is due at {@code now}, counting afresh; else 0. */
    long warn(Instant now) {
        Instant due = nextWarning();
        if (due == null || due.isAfter(now)) {
            return 0;
        }
        long count = dropped;
        dropped = 0;
        warned = now;
        return count;
    }
}
