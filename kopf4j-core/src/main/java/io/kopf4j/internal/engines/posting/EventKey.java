package io.kopf4j.internal.engines.posting;

import java.util.Map;

/**
 * What makes Events the same, as client-go's {@code getEventKey} (the source is the same for all of
 * an operator's Events, so it is left out): identical occurrences, with the same key, are counted
 * into one Event. A key without a message stands for a group of similar events (the same object,
 * type and reason) and for the Event that combines them.
 *
 * <pre>{@code
 * EventKey identical = EventKey.of(occurrence);   // reference, type, reason, message
 * EventKey similar = identical.similar();         // reference, type, reason: the group and its combined Event
 * }</pre>
 *
 * @param reference the involved object's reference (its apiVersion, kind, name, uid, namespace)
 * @param message the message; null for the group of similar events
 */
record EventKey(Map<String, Object> reference, String type, String reason, String message) {
    static EventKey of(K8sEvent occurrence) {
        return new EventKey(occurrence.reference(), occurrence.type(), occurrence.reason(), occurrence.message());
    }

    /** The key of this event's group of similar events, and of the Event that combines them. */
    EventKey similar() {
        return new EventKey(reference, type, reason, null);
    }

    boolean combined() {
        return message == null;
    }
}
