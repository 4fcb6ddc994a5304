package io.kopf4j;

import io.kopf4j.structs.Json;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.Map;
import java.util.Set;

/**
 * A read-only view of a part of a Kubernetes object ({@link Body}, {@link Spec}, {@link Meta},
 * {@link Status}), usable as a {@code Map<String, Object>} of JSON values (maps, lists, strings,
 * numbers, booleans). Its {@code toString()} is compact JSON. To change the object, use
 * {@link Patch}.
 */
public abstract class ObjectView extends AbstractMap<String, Object> {
    private final Map<String, Object> fields;

    ObjectView(Map<String, Object> fields) {
        this.fields = fields == null ? Map.of() : Collections.unmodifiableMap(fields);
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return fields.entrySet();
    }

    @Override
    public Object get(Object key) {
        return fields.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return fields.containsKey(key);
    }

    /**
     * {@return the nested map under {@code key}, or null if absent or not a map}
     *
     * @param key the field's name
     */
    @SuppressWarnings("unchecked")
    protected Map<String, Object> section(String key) {
        Object value = fields.get(key);
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }

    /**
     * {@return the string under {@code key}, or null}
     *
     * @param key the field's name
     */
    protected String string(String key) {
        Object value = fields.get(key);
        return value == null ? null : value.toString();
    }

    /** {@return the fields as compact JSON} */
    @Override
    public String toString() {
        return Json.compact(fields);
    }
}
