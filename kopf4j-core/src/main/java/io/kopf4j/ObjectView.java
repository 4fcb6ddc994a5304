package io.kopf4j;

import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.structs.JsonValues;
import io.kopf4j.internal.structs.TypedJson;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A read-only view of a part of a Kubernetes object ({@link Body}, {@link Spec}, {@link Meta},
 * {@link Status}), usable as a {@code Map<String, Object>} of JSON values (maps, lists, strings,
 * numbers, booleans). Its {@code toString()} is compact JSON. To change the object, use
 * {@link Patch}.
 *
 * <p>For typed code: {@link #as(Class)} converts the fields to a record, a POJO or a fabric8 model;
 * the getters read one value by dotted path, with a default when it is absent or null, and fail,
 * naming the path and the types, when it has another type.
 *
 * <pre>{@code
 * int replicas = spec.getInt("replicas", 1);
 * String image = spec.getString("database.image", "postgres:16");
 * DatabaseSpec typed = spec.as(DatabaseSpec.class);
 * StatefulSet set = body.as(StatefulSet.class);
 * }</pre>
 */
public abstract class ObjectView extends AbstractMap<String, Object> {
    private final Map<String, Object> fields;
    /** For a live view: where the latest fields are read at each access; null for a snapshot. */
    private final Supplier<Map<String, Object>> source;
    private final String path;

    ObjectView(Map<String, Object> fields, String path) {
        this.fields = fields == null ? Map.of() : Collections.unmodifiableMap(fields);
        this.source = null;
        this.path = path;
    }

    /** A live view, as Kopf's for daemons: every access reads the latest fields the source gives. */
    ObjectView(Supplier<Map<String, Object>> source, String path) {
        this.fields = null;
        this.source = source;
        this.path = path;
    }

    private Map<String, Object> fields() {
        if (source == null) {
            return fields;
        }
        Map<String, Object> latest = source.get();
        return latest == null ? Map.of() : Collections.unmodifiableMap(latest);
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return fields().entrySet();
    }

    @Override
    public Object get(Object key) {
        return fields().get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return fields().containsKey(key);
    }

    /**
     * {@return the nested map under {@code key}, or null if absent or not a map}
     *
     * @param key the field's name
     */
    @SuppressWarnings("unchecked")
    protected Map<String, Object> section(String key) {
        Object value = fields().get(key);
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }

    /**
     * {@return the string under {@code key}, or null}
     *
     * @param key the field's name
     */
    protected String string(String key) {
        Object value = fields().get(key);
        return value == null ? null : value.toString();
    }

    /**
     * A new instance of {@code type} built from a copy of the fields, with Jackson (as fabric8 does);
     * fields the type does not declare are ignored. The view itself stays unchanged.
     *
     * @param type a record, a class with a default (or {@code @JsonCreator}) constructor, a fabric8 model
     * @param <T> the type
     * @return the new instance
     * @throws IllegalArgumentException naming the field and the type if a value does not fit
     */
    public <T> T as(Class<T> type) {
        return TypedJson.convert(fields(), TypedJson.type(type), path);
    }

    /**
     * {@return the whole number at the dotted path, or {@code fallback} if absent or null}
     *
     * @param field a dotted path, e.g. {@code replicas} or {@code database.replicas}
     * @param fallback the value if the field is absent
     * @throws IllegalArgumentException if the value is not a whole number in an int's range
     */
    public int getInt(String field, int fallback) {
        return read(field, Integer.class, fallback);
    }

    /**
     * {@return the whole number at the dotted path, or {@code fallback} if absent or null}
     *
     * @param field a dotted path
     * @param fallback the value if the field is absent
     * @throws IllegalArgumentException if the value is not a whole number in a long's range
     */
    public long getLong(String field, long fallback) {
        return read(field, Long.class, fallback);
    }

    /**
     * {@return the number at the dotted path, or {@code fallback} if absent or null}
     *
     * @param field a dotted path
     * @param fallback the value if the field is absent
     * @throws IllegalArgumentException if the value is not a number
     */
    public double getDouble(String field, double fallback) {
        return read(field, Double.class, fallback);
    }

    /**
     * {@return the string at the dotted path, or {@code fallback} if absent or null}
     *
     * @param field a dotted path
     * @param fallback the value if the field is absent
     * @throws IllegalArgumentException if the value is not a string (numbers are not converted)
     */
    public String getString(String field, String fallback) {
        return read(field, String.class, fallback);
    }

    /**
     * {@return the boolean at the dotted path, or {@code fallback} if absent or null}
     *
     * @param field a dotted path
     * @param fallback the value if the field is absent
     * @throws IllegalArgumentException if the value is not a boolean (strings are not converted)
     */
    public boolean getBoolean(String field, boolean fallback) {
        return read(field, Boolean.class, fallback);
    }

    /**
     * {@return the map at the dotted path, read-only; empty if absent or null}
     *
     * @param field a dotted path
     * @throws IllegalArgumentException if the value is not a map
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> getMap(String field) {
        return read(field, Map.class, Map.of());
    }

    /**
     * {@return the list at the dotted path, read-only; empty if absent or null}
     *
     * @param field a dotted path
     * @throws IllegalArgumentException if the value is not a list
     */
    @SuppressWarnings("unchecked")
    public List<Object> getList(String field) {
        return read(field, List.class, List.of());
    }

    private <T> T read(String field, Class<T> type, T fallback) {
        Object value = JsonValues.at(fields(), path, field);
        String where = path.isEmpty() ? field : path + "." + field;
        return value == null ? fallback : JsonValues.as(value, type, where);
    }

    /** {@return the fields as compact JSON} */
    @Override
    public String toString() {
        return Json.compact(fields());
    }
}
