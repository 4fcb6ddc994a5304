package io.kopf4j.internal.watching;

import java.util.Map;

/**
 * One event of a watch stream, or one object of the initial listing ({@code type} null, as in
 * Kopf).
 *
 * @param type {@code ADDED}, {@code MODIFIED}, {@code DELETED}, or null for an object listed
 * @param object the object's body as plain JSON maps
 * @param received when it arrived ({@link System#nanoTime()}), for the queue wait metric
 */
public record WatchEvent(String type, Map<String, Object> object, long received) {
    public WatchEvent(String type, Map<String, Object> object) {
        this(type, object, System.nanoTime());
    }

    private static final String RECHECK = "kopf4j-recheck";

    /**
     * Not from the watch: the object's latest body queued again by the operator itself, when
     * something that held it (a stopping daemon) has changed, so that it is processed again without
     * polling or touching the object.
     */
    public static WatchEvent recheck(Map<String, Object> latest) {
        return new WatchEvent(RECHECK, latest);
    }

    public boolean isRecheck() {
        return RECHECK.equals(type);
    }

    public boolean isListing() {
        return type == null;
    }

    public boolean isDeleted() {
        return "DELETED".equals(type);
    }

    /**
     * Kopf's object key: the uid; for objects without one (rare built-ins), kind, apiVersion, name and
     * namespace; null if the object has not even a name.
     */
    public String key() {
        String uid = uid();
        if (uid != null || name() == null) {
            return uid;
        }
        return String.join("//", String.valueOf(object.get("kind")), String.valueOf(object.get("apiVersion")), name(),
                String.valueOf(namespace()));
    }

    public String uid() {
        return metadata("uid");
    }

    public String name() {
        return metadata("name");
    }

    public String namespace() {
        return metadata("namespace");
    }

    public String resourceVersion() {
        return metadata("resourceVersion");
    }

    private String metadata(String field) {
        Object metadata = object.get("metadata");
        if (metadata instanceof Map<?, ?> map && map.get(field) != null) {
            return map.get(field).toString();
        }
        return null;
    }
}
