package io.kopf4j.internal.clients;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An object of a listing or of a watch-event that the API server accepted but the operator cannot
 * read as its handlers would get it: nested deeper than the JSON parser allows (the API server takes
 * 5,000 levels under {@code x-kubernetes-preserve-unknown-fields}; Jackson stops at 1,000, which keeps
 * every recursive walk of the operator within a thread's stack), a number longer than the parser
 * takes, or bytes that are not JSON at all. What could be read of it without building it is kept:
 * its identity, so that one error names it and the rest of its resource is served.
 *
 * <pre>{@code
 * ApiRequest.Listing page = retries.list(request, LOG);
 * page.unreadable().forEach(object -> LOG.error("{} cannot be read: {}", object.describe(), object.reason()));
 * }</pre>
 *
 * @param type the watch-event's type ({@code ADDED}, {@code MODIFIED}, {@code DELETED}), or null for a listed object
 * @param identity what could be read of the object: {@code apiVersion}, {@code kind}, and {@code metadata} with only
 *                 {@code name}, {@code namespace}, {@code uid} and {@code resourceVersion}, each where found
 * @param reason why it cannot be read, as the parser says it
 */
public record UnreadableObject(String type, Map<String, Object> identity, String reason) {
    /** {@return the object's name, or null if even that could not be read} */
    public String name() {
        return metadata("name");
    }

    /** {@return the object's namespace, or null for a cluster-scoped object (or one not read so far)} */
    public String namespace() {
        return metadata("namespace");
    }

    /** {@return the object's uid, or null} */
    public String uid() {
        return metadata("uid");
    }

    /** {@return the object's resourceVersion: where the watch stream is once past it; or null} */
    public String resourceVersion() {
        return metadata("resourceVersion");
    }

    /** {@return {@code namespace/name}, {@code name}, or a placeholder if the name could not be read} */
    public String describe() {
        String name = name();
        if (name == null) {
            return "an object whose name cannot be read";
        }
        return namespace() == null ? name : namespace() + "/" + name;
    }

    /** The identity as a body of only these fields (a fresh, mutable copy): for the object's logger. */
    public Map<String, Object> body() {
        Map<String, Object> body = new LinkedHashMap<>(identity);
        if (identity.get("metadata") instanceof Map<?, ?> metadata) {
            body.put("metadata", new LinkedHashMap<>(metadata));
        }
        return body;
    }

    private String metadata(String field) {
        return identity.get("metadata") instanceof Map<?, ?> metadata && metadata.get(field) instanceof String value
                ? value : null;
    }
}
