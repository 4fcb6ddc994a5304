package io.kopf4j.internal.engines.posting;

import io.kopf4j.OperatorSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;

/**
 * client-go's {@code EventCorrelator} for kopf4j's Events, written by hand because fabric8 has no
 * event recorder, and Kopf has none either (its {@code post_event} says this "should be done by the
 * client library, as it is done in the Go client"). It decides, for each occurrence queued by the
 * object loggers and {@code io.kopf4j.Events}, which write to make and when:
 * <ul>
 * <li>identical occurrences (the same object, type, reason and message) are one Event, whose
 *     {@code count} and {@code lastTimestamp} grow: a new Event is written at once, its later counts
 *     at most once per {@code settings.posting.repeatInterval}, each write carrying all
 *     occurrences so far (client-go's {@code eventLogger}, which writes every one);</li>
 * <li>similar ones (the same object, type and reason) are combined into one Event past
 *     {@code similarLimit} different messages ({@link SimilarEvents});</li>
 * <li>every write takes one from its object's budget ({@link RateLimits}); a write beyond it waits
 *     for the budget rather than being dropped as client-go's spam filter drops it;</li>
 * <li>at most {@code queueSize} Events are tracked, waiting or written within the correlation window;
 *     an occurrence of a new Event when all of them wait is dropped ({@link Outcome#DROPPED}).</li>
 * </ul>
 * The occurrences that wait for their Event's write take no room of their own: the queue grows with
 * the Events, not with their repeats. Writes due at once go in the order they were queued (so new
 * Events in the order of their first occurrences). One write is in flight at a time. Not
 * thread-safe; times are passed in (monotonic), so that the tests drive a fake clock.
 *
 * <pre>{@code
 * EventCorrelator correlator = new EventCorrelator(settings.posting);
 * correlator.offer(occurrence, now);                        // NEW, COUNTED or DROPPED
 * Optional<EventWrite> write = correlator.take(now);        // the next write due, if any
 * correlator.written(name, now);                            // its result: the Event's name, or null
 * Instant wake = correlator.nextDue();                      // when to look again
 * }</pre>
 */
final class EventCorrelator {
    /** client-go's {@code EventAggregatorByReasonMessageFunc}: the combined Event's message is the latest one's after this. */
    static final String COMBINED_PREFIX = "(combined from similar events): ";

    /** What became of an occurrence. */
    enum Outcome {
        /** A new Event, to be written. */
        NEW,
        /** Counted into an Event already tracked: its next write carries it. */
        COUNTED,
        /** Dropped: {@code queueSize} Events wait to be written already. */
        DROPPED
    }

    private final int queueSize;
    private final Duration repeatInterval;
    private final Duration window;
    private final SimilarEvents similar;
    private final RateLimits rates;
    /** Events with occurrences to write: queued, or in flight. */
    private final Map<EventKey, TrackedEvent> waiting = new HashMap<>();
    private final NavigableSet<TrackedEvent> queue = new TreeSet<>(
            Comparator.<TrackedEvent, Instant>comparing(event -> event.due).thenComparingLong(event -> event.order));
    /** Events written, remembered to count their repeats, for as long as the correlation window and the room allow. */
    private final RecentMap<EventKey, TrackedEvent> written;
    private TrackedEvent inFlight;
    private int inFlightCount;
    private long order;

    /** With the limits of these settings, read once. */
    EventCorrelator(OperatorSettings.Posting settings) {
        this.queueSize = settings.queueSize;
        this.repeatInterval = settings.repeatInterval;
        this.window = settings.correlationWindow;
        this.similar = new SimilarEvents(settings.similarLimit, settings.correlationWindow, settings.queueSize);
        this.rates = new RateLimits(settings.burst, settings.refillInterval, settings.queueSize);
        this.written = new RecentMap<>(settings.queueSize);
    }

    /** Takes in one occurrence, which happened at {@code now}. */
    Outcome offer(K8sEvent occurrence, Instant now) {
        EventKey key = similar.keyOf(occurrence, now);
        String message = key.combined() ? COMBINED_PREFIX + occurrence.message() : occurrence.message();
        TrackedEvent event = waiting.get(key);
        if (event != null) {
            event.occurred(occurrence, message, now);
            return Outcome.COUNTED;
        }
        Instant windowStart = now.minus(window);
        written.forgetWhile(remembered -> remembered.seen.isBefore(windowStart));
        event = written.remove(key);
        if (event != null) {
            event.occurred(occurrence, message, now);
            schedule(event, latest(now, event.writtenAt.plus(repeatInterval)));
            waiting.put(key, event);
            return Outcome.COUNTED;
        }
        if (waiting.size() + written.size() >= queueSize) {
            if (written.isEmpty()) {
                return Outcome.DROPPED;
            }
            written.removeEldest();
        }
        event = new TrackedEvent(key, occurrence, message, now);
        schedule(event, now);
        waiting.put(key, event);
        return Outcome.NEW;
    }

    /**
     * The next write due at {@code now}, taken from its object's budget and in flight until
     * {@link #written}; empty if none is due. Writes due but beyond their object's budget are put
     * back until its next write.
     */
    Optional<EventWrite> take(Instant now) {
        while (!queue.isEmpty() && !queue.first().due.isAfter(now)) {
            TrackedEvent event = queue.pollFirst();
            Instant allowed = rates.nextWrite(event.key, now);
            if (allowed.isAfter(now)) {
                schedule(event, allowed);
            } else {
                rates.take(event.key, now);
                return Optional.of(send(event));
            }
        }
        return Optional.empty();
    }

    /** The next queued write, due or not, beyond any budget: for the last writes when the operator stops. */
    Optional<EventWrite> drain() {
        return queue.isEmpty() ? Optional.empty() : Optional.of(send(queue.pollFirst()));
    }

    /**
     * The write in flight ended at {@code now}: the API server has it as the Event with this name, or
     * lost it (null). Occurrences that came meanwhile are queued for the repeat interval.
     */
    void written(String name, Instant now) {
        TrackedEvent event = inFlight;
        inFlight = null;
        event.written(inFlightCount, name, now);
        if (event.unwritten()) {
            schedule(event, now.plus(repeatInterval));
        } else {
            waiting.remove(event.key);
            written.put(event.key, event);
        }
    }

    /** When the earliest queued write is due (monotonic); null if none is queued. */
    Instant nextDue() {
        return queue.isEmpty() ? null : queue.first().due;
    }

    private EventWrite send(TrackedEvent event) {
        EventWrite write = event.write();
        inFlight = event;
        inFlightCount = write.count();
        return write;
    }

    private void schedule(TrackedEvent event, Instant due) {
        event.due = due;
        event.order = order++;
        queue.add(event);
    }

    private static Instant latest(Instant one, Instant other) {
        return one.isAfter(other) ? one : other;
    }
}
