package io.kopf4j;

import io.kopf4j.intents.Condition;
import io.kopf4j.intents.Filters;
import io.kopf4j.structs.Dicts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The options of handlers of objects, shared by the builders of {@link Handler} and
 * {@link SubHandler}: the {@link ExecutionOptions} and Kopf's filters ({@code labels},
 * {@code annotations}, {@code field}, {@code value}, {@code old}, {@code new}, {@code when}).
 *
 * @param <B> the builder that the option methods return, for chaining
 */
public abstract class HandlerOptions<B extends HandlerOptions<B>> extends ExecutionOptions<B> {
    private final Map<String, Condition> labels = new LinkedHashMap<>();
    private final Map<String, Condition> annotations = new LinkedHashMap<>();
    private String field;
    private Condition value;
    private Condition old;
    private Condition current;
    private final List<Filter> when = new ArrayList<>();

    HandlerOptions() {
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** The label must have this value. */
    public B label(String key, String labelValue) {
        labels.put(key, new Condition.Exact(labelValue));
        return self();
    }

    /** The label's value (null if absent) must pass the predicate. */
    public B label(String key, Predicate<String> predicate) {
        labels.put(key, new Condition.Matching(v -> predicate.test((String) v)));
        return self();
    }

    /** The label must be present, with any value. */
    public B labelPresent(String key) {
        labels.put(key, new Condition.Present());
        return self();
    }

    /** The label must be absent. */
    public B labelAbsent(String key) {
        labels.put(key, new Condition.Absent());
        return self();
    }

    /** The annotation must have this value. */
    public B annotation(String key, String annotationValue) {
        annotations.put(key, new Condition.Exact(annotationValue));
        return self();
    }

    /** The annotation's value (null if absent) must pass the predicate. */
    public B annotation(String key, Predicate<String> predicate) {
        annotations.put(key, new Condition.Matching(v -> predicate.test((String) v)));
        return self();
    }

    /** The annotation must be present, with any value. */
    public B annotationPresent(String key) {
        annotations.put(key, new Condition.Present());
        return self();
    }

    /** The annotation must be absent. */
    public B annotationAbsent(String key) {
        annotations.put(key, new Condition.Absent());
        return self();
    }

    /** A dotted field path: update and field handlers react to its changes; all need it present. Its id is {@code id/field}. */
    public B field(String path) {
        this.field = path;
        return self();
    }

    /** The field's value, old or new, must pass the predicate (null when absent). */
    public B value(Predicate<Object> predicate) {
        this.value = new Condition.Matching(predicate);
        return self();
    }

    /** The field's value before the change must pass the predicate (update and field handlers). */
    public B old(Predicate<Object> predicate) {
        this.old = new Condition.Matching(predicate);
        return self();
    }

    /** The field's value after the change must pass the predicate (update and field handlers). */
    public B current(Predicate<Object> predicate) {
        this.current = new Condition.Matching(predicate);
        return self();
    }

    /** The object (and the change) must pass this filter. */
    public B when(Filter filter) {
        when.add(Objects.requireNonNull(filter, "filter"));
        return self();
    }

    /** The dotted field as set, or null. */
    String field() {
        return field;
    }

    /** The field split into its path, or null. */
    List<String> fieldPath() {
        return field == null ? null : Dicts.parseField(field);
    }

    /** The id with Kopf's {@code /field} suffix for handlers with a field. */
    String idWithField(String id) {
        return field == null ? id : id + "/" + field;
    }

    Filters filters() {
        return new Filters(labels, annotations, fieldPath(), value, old, current, when);
    }

    /** Kopf's rules for filter arguments, as an error naming the handler. */
    void checkFilters() {
        if ((value != null || old != null || current != null) && field == null) {
            throw new InvalidHandlerException(describe() + ": value, old and current need a field");
        }
        if (value != null && (old != null || current != null)) {
            throw new InvalidHandlerException(describe() + ": value excludes old and current");
        }
    }
}
