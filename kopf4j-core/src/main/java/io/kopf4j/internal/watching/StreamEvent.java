package io.kopf4j.internal.watching;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.internal.structs.Json;
import java.util.Map;
import java.util.Set;

/**
 * One line of a watch stream as the API server sends it, {@code {"type": ..., "object": {...}}},
 * and what it means for the watcher: an object's change to deliver, a bookmark (only its version
 * counts), or an error that ends the stream ({@code 410 Gone}: the version expired, list again).
 *
 * <pre>{@code
 * StreamEvent event = StreamEvent.of(Json.parseMap("{\"type\":\"BOOKMARK\",\"object\":{\"metadata\":{\"resourceVersion\":\"7\"}}}"));
 * event.resourceVersion();   // "7"
 * event.delivered();         // false
 * }</pre>
 */
record StreamEvent(String type, Map<String, Object> object) {
    private static final Set<String> CHANGES = Set.of("ADDED", "MODIFIED", "DELETED");

    @SuppressWarnings("unchecked")
    static StreamEvent of(Map<String, Object> line) {
        Object object = line.get("object");
        return new StreamEvent((String) line.get("type"), object instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of());
    }

    /** A change of an object, for the handlers. */
    boolean delivered() {
        return CHANGES.contains(type);
    }

    boolean bookmark() {
        return "BOOKMARK".equals(type);
    }

    /** The version that the stream has reached with this event (an object's, a bookmark's), or null. */
    String resourceVersion() {
        return object.get("metadata") instanceof Map<?, ?> metadata && metadata.get("resourceVersion") instanceof String version
                ? version : null;
    }

    /**
     * For an {@code ERROR} event: the failure it reports, as fabric8's exception with the code of
     * the Status that the event carries (410: the version expired); null for other events.
     */
    KubernetesClientException failure() {
        if (!"ERROR".equals(type)) {
            return null;
        }
        Status status = Json.mapper().convertValue(object, Status.class);
        int code = status.getCode() == null ? 0 : status.getCode();
        // Kopf's text of the same failure (WatchingError).
        return new KubernetesClientException("Error in the watch-stream: " + Json.pythonRepr(object), code, status);
    }
}
