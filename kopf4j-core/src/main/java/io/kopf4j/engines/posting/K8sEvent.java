package io.kopf4j.engines.posting;

import java.time.Instant;
import java.util.Map;

/**
 * One Kubernetes Event waiting to be posted (Kopf's {@code K8sEvent}): it keeps only the object's
 * reference, so it can be posted even after the object is gone.
 *
 * @param reference the involved object: apiVersion, kind, name, uid, namespace (those known)
 * @param time when it was queued, which becomes its timestamps
 */
public record K8sEvent(Map<String, Object> reference, String type, String reason, String message, Instant time) {
}
