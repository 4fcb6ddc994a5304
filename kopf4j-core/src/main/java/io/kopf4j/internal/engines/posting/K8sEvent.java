package io.kopf4j.internal.engines.posting;

import java.time.Instant;
import java.util.Map;

/**
 * One occurrence of a Kubernetes Event, as queued (Kopf's {@code K8sEvent}): it keeps only the
 * object's reference, so it can be posted even after the object is gone. Identical occurrences
 * become one Event with their count ({@link EventCorrelator}).
 *
 * <pre>{@code
 * new K8sEvent(ObjectReferences.of(body), "Normal", "Logging", "Timer 'tick' succeeded.", Instant.now());
 * }</pre>
 *
 * @param reference the involved object: apiVersion, kind, name, uid, namespace (those known)
 * @param time when it was queued (wall clock), which becomes its Event's first or last timestamp
 */
record K8sEvent(Map<String, Object> reference, String type, String reason, String message, Instant time) {
}
