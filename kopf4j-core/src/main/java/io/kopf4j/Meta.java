package io.kopf4j;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The object's {@code metadata}, read-only, with typed accessors for the usual fields.
 *
 * <pre>{@code
 * @On.Create("kopfexamples")
 * void create(Meta meta, Logger logger) {
 *     logger.info("{} in {}, labels {}", meta.name(), meta.namespace(), meta.labels());
 * }
 * }</pre>
 */
public final class Meta extends ObjectView {
    /**
     * A view of an object's {@code metadata}.
     *
     * @param fields the metadata; null means empty
     */
    public Meta(Map<String, Object> fields) {
        super(fields, "metadata");
    }

    private Meta(Supplier<Map<String, Object>> source) {
        super(source, "metadata");
    }

    /** A live view: every access reads the latest {@code metadata} the source gives (daemons' views). */
    static Meta live(Supplier<Map<String, Object>> source) {
        return new Meta(source);
    }

    /** {@return the object's name} */
    public String name() {
        return string("name");
    }

    /** {@return the namespace, or null for a cluster-scoped object} */
    public String namespace() {
        return string("namespace");
    }

    /** {@return the object's uid} */
    public String uid() {
        return string("uid");
    }

    /** {@return the object's {@code resourceVersion}} */
    public String resourceVersion() {
        return string("resourceVersion");
    }

    /** {@return when the object was created, as the API server's timestamp text} */
    public String creationTimestamp() {
        return string("creationTimestamp");
    }

    /** {@return when the deletion was requested: set once the object is being deleted; null otherwise} */
    public String deletionTimestamp() {
        return string("deletionTimestamp");
    }

    /** {@return the labels; empty if none} */
    @SuppressWarnings("unchecked")
    public Map<String, String> labels() {
        Map<String, ?> labels = section("labels");
        return labels == null ? Map.of() : (Map<String, String>) labels;
    }

    /** {@return the annotations; empty if none} */
    @SuppressWarnings("unchecked")
    public Map<String, String> annotations() {
        Map<String, ?> annotations = section("annotations");
        return annotations == null ? Map.of() : (Map<String, String>) annotations;
    }

    /** {@return the finalizers; empty if none} */
    @SuppressWarnings("unchecked")
    public List<String> finalizers() {
        Object finalizers = get("finalizers");
        return finalizers instanceof List<?> list ? (List<String>) list : List.of();
    }
}
