package io.kopf4j.internal.engines.posting;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * client-go's {@code EventAggregator} (its {@code EventAggregatorByReasonFunc}): events of one
 * object with the same type and reason are similar; once a group has seen {@code similarLimit}
 * different messages within {@code correlationWindow} of each other, every further new message goes
 * to the group's combined Event rather than an Event of its own. Messages seen before keep their
 * own Events (counted up as identical ones). A group quiet for the window starts afresh. Not
 * thread-safe.
 *
 * <pre>{@code
 * SimilarEvents similar = new SimilarEvents(10, Duration.ofMinutes(10), 10_000);
 * EventKey key = similar.keyOf(occurrence, now);   // its own key, or key.combined() for the group's Event
 * }</pre>
 */
final class SimilarEvents {
    private final int limit;
    private final Duration window;
    private final RecentMap<EventKey, Group> groups;

    /** The different messages of a group (at most the limit less one), and when it last had an event. */
    private static final class Group {
        final Set<String> messages = new HashSet<>();
        Instant last;
    }

    /** @param capacity the most groups kept; the least recently active beyond it are forgotten (start afresh) */
    SimilarEvents(int limit, Duration window, int capacity) {
        this.limit = limit;
        this.window = window;
        this.groups = new RecentMap<>(capacity);
    }

    /** The key this occurrence counts under: its own, or its group's combined one past the limit of messages. */
    EventKey keyOf(K8sEvent occurrence, Instant now) {
        Instant windowStart = now.minus(window);
        groups.forgetWhile(group -> group.last.isBefore(windowStart));
        EventKey own = EventKey.of(occurrence);
        Group group = groups.get(own.similar());
        if (group == null) {
            group = new Group();
            groups.put(own.similar(), group);
        }
        group.last = now;
        if (group.messages.contains(own.message()) || group.messages.size() < limit - 1) {
            group.messages.add(own.message());
            return own;
        }
        return own.similar();
    }
}
