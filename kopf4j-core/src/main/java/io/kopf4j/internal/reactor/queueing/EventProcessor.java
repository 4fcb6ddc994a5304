package io.kopf4j.internal.reactor.queueing;

import io.kopf4j.internal.watching.WatchEvent;
import java.time.Instant;

/**
 * What the queues hand every event to, one at a time per object: the processing of Kopf's
 * {@code process_resource_event}. Kept as an interface so that queueing knows nothing of handlers.
 */
@FunctionalInterface
public interface EventProcessor {
    /**
     * Processes one event of one object.
     *
     * @param event the event (or a listed object)
     * @param pressure rises when newer events of the object arrive, to cut sleeps short
     * @param consistencyDeadline until when our own last patch is awaited; null if none is
     * @return the resourceVersion our own patch produced (to await it), or null if nothing was patched
     */
    String process(WatchEvent event, Pressure pressure, Instant consistencyDeadline) throws InterruptedException;

    /**
     * Told of every watch event (not of rechecks) on the watcher's thread as it arrives, before it is
     * queued: for work that must be done in the stream's order before any object's turn (Kopf's
     * indexing), so that it is done once a listing is delivered. Must be quick and never throw.
     */
    default void arrived(WatchEvent event) {
    }

    /**
     * Whether the event needs its object's turn at all; asked on the watcher's thread after
     * {@link #arrived}. An event that certainly concerns no handler and no state is dropped there,
     * so that its body is not kept until a worker would take it: in a big cluster, a listing of
     * thousands of objects that no handler serves then costs their parsing only. Must be quick and
     * never throw.
     */
    default boolean concerns(WatchEvent event) {
        return true;
    }
}
