package io.kopf4j.internal.engines.posting;

import java.time.Instant;

/**
 * One Event as the correlation knows it (client-go's {@code eventLog}): its name on the API server,
 * its occurrences and how many of them were written, and, while it waits in the queue, when it is
 * due. Times of two clocks: the occurrences' wall-clock times become the Event's timestamps; the
 * monotonic ones ({@code seen}, {@code writtenAt}, {@code due}) schedule. Not thread-safe.
 */
final class TrackedEvent {
    final EventKey key;
    private String name;
    private String message;
    private int count;
    private int writtenCount;
    private final Instant first;
    private Instant last;
    /** The latest occurrence, monotonic: the Event is forgotten a correlation window after it. */
    Instant seen;
    /** The latest write, monotonic: the next count waits for the repeat interval after it. */
    Instant writtenAt;
    /** While queued: when it may be written (monotonic), and its place among those due at once. */
    Instant due;
    long order;

    TrackedEvent(EventKey key, K8sEvent occurrence, String message, Instant now) {
        this.key = key;
        this.first = occurrence.time();
        occurred(occurrence, message, now);
    }

    /** One more occurrence: its message (the combined Event's changes) and time become the latest. */
    void occurred(K8sEvent occurrence, String message, Instant now) {
        this.count++;
        this.message = message;
        this.last = occurrence.time();
        this.seen = now;
    }

    /** What to write now: every occurrence so far. */
    EventWrite write() {
        return new EventWrite(key.reference(), key.type(), key.reason(), message, count, first, last, name);
    }

    /**
     * The write of {@code written} occurrences ended: the API server has them as the Event with this
     * name, or lost them (null name: the Event stays as it was).
     */
    void written(int written, String newName, Instant now) {
        this.writtenCount = written;
        this.writtenAt = now;
        if (newName != null) {
            this.name = newName;
        }
    }

    /** Whether occurrences came while it was written, to be counted in the next write. */
    boolean unwritten() {
        return count > writtenCount;
    }
}
