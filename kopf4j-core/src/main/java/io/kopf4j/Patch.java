package io.kopf4j;

import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.structs.TypedJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Changes to make to the object after the handler, accumulated as a JSON merge patch (RFC 7396)
 * and sent in one PATCH together with kopf4j's own bookkeeping. A {@code null} value deletes the
 * field. Status changes go to the {@code /status} subresource where the resource has one.
 *
 * <pre>{@code
 * @On.Create("kopfexamples")
 * void create(Patch patch) {
 *     patch.status().put("phase", "Ready");
 *     patch.labels().put("handled", "yes");
 *     patch.spec().put("obsolete", null);     // removes spec.obsolete
 * }
 * }</pre>
 *
 * <p>Typed code writes a record or a POJO: its non-null fields are merged into the section.
 *
 * <pre>{@code
 * record DatabaseStatus(String phase, int readyReplicas) {}
 *
 * patch.status(new DatabaseStatus("Ready", 3));   // status: {phase: Ready, readyReplicas: 3}
 * }</pre>
 *
 * <p>For changes that depend on the object's current content (lists, counters), add a function to
 * {@link #fns()}: it edits a copy of the freshest body, and the difference is sent as a JSON Patch
 * that fails, and is retried in the next cycle, if the object changed meanwhile.
 *
 * <p>Patch objects are not thread-safe; a handler uses its own.
 */
public final class Patch {
    private final Map<String, Object> root = new LinkedHashMap<>();
    private final List<Consumer<Map<String, Object>>> fns = new ArrayList<>();

    /** An empty patch. */
    public Patch() {
    }

    /**
     * A patch that carries over functions which could not be applied in an earlier cycle.
     *
     * @param pending the functions, applied first
     */
    public Patch(List<Consumer<Map<String, Object>>> pending) {
        fns.addAll(pending);
    }

    /** {@return the {@code metadata} section, created on first use} */
    public Map<String, Object> metadata() {
        return section(root, "metadata");
    }

    /** {@return the {@code metadata.labels} section, created on first use} */
    public Map<String, Object> labels() {
        return section(metadata(), "labels");
    }

    /** {@return the {@code metadata.annotations} section, created on first use} */
    public Map<String, Object> annotations() {
        return section(metadata(), "annotations");
    }

    /** {@return the {@code spec} section, created on first use} */
    public Map<String, Object> spec() {
        return section(root, "spec");
    }

    /** {@return the {@code status} section, created on first use} */
    public Map<String, Object> status() {
        return section(root, "status");
    }

    /**
     * Merges the fields of a record, a POJO or a map into the {@code spec} section: see {@link #status(Object)}.
     *
     * @param value the new values
     * @return this patch
     * @throws IllegalArgumentException if the value has no fields (a string, a number, a list)
     */
    public Patch spec(Object value) {
        return merge(spec(), value);
    }

    /**
     * Merges the fields of a record, a POJO or a map into the {@code status} section, converted to
     * JSON as Jackson writes them ({@code java.time} values as timestamp texts). Fields that are
     * {@code null} are left out, so that a partly filled value changes only what it sets; fields it
     * sets replace those already in the patch. To delete a field, put {@code null} in
     * {@link #status()}.
     *
     * @param value the new values
     * @return this patch
     * @throws IllegalArgumentException if the value has no fields (a string, a number, a list)
     */
    public Patch status(Object value) {
        return merge(status(), value);
    }

    private Patch merge(Map<String, Object> section, Object value) {
        section.putAll(TypedJson.fieldsOf(value));
        return this;
    }

    /** {@return the top level of the patch, for fields outside the usual sections} */
    public Map<String, Object> root() {
        return root;
    }

    /**
     * Functions that edit a copy of the object's body; applied as a guarded JSON Patch.
     *
     * @return the list, to add functions to
     */
    public List<Consumer<Map<String, Object>>> fns() {
        return fns;
    }

    /** {@return true if the patch would change nothing (sections opened but left empty do not count)} */
    public boolean isEmpty() {
        return fns.isEmpty() && Json.withoutEmptyMaps(root).isEmpty();
    }

    /**
     * The merge patch as JSON: a deep copy without the sections that were opened but left empty, and
     * with every value written as {@link #status(Object)} writes it, however it was given (a record
     * or a {@code java.time} value {@code put} into a section is a map or a timestamp text here), so
     * that what is sent, logged and compared with the API server's answer is the same plain JSON.
     *
     * @return plain JSON maps, lists and scalars; a map's {@code null} values kept (they delete fields)
     * @throws IllegalArgumentException if a value cannot be written as JSON (a cycle, too deep)
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> toMap() {
        return (Map<String, Object>) TypedJson.toJson(Json.withoutEmptyMaps(root));
    }

    @Override
    public String toString() {
        return Json.compact(toMap());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(Map<String, Object> parent, String key) {
        Object existing = parent.get(key);
        if (existing instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        Map<String, Object> created = new LinkedHashMap<>();
        parent.put(key, created);
        return created;
    }
}
