package io.kopf4j;

import io.kopf4j.intents.Condition;
import io.kopf4j.intents.HandlerSpec;
import java.util.function.Predicate;

/**
 * The options of handlers of objects, shared by the builders of {@link Handler} and
 * {@link SubHandler}: the {@link ExecutionOptions} and Kopf's filters ({@code labels},
 * {@code annotations}, {@code field}, {@code value}, {@code old}, {@code new}, {@code when}).
 *
 * <pre>{@code
 * Handler.update("kopfexamples").id("resize").field("spec.size").label("app", "web")
 *         .annotationAbsent("example.com/paused").when(context -> context.spec().getInt("size", 0) > 0)
 *         .retries(3).handle(context -> resize(context.current()));
 * }</pre>
 *
 * @param <B> the builder that the option methods return, for chaining
 */
public abstract class HandlerOptions<B extends HandlerOptions<B>> extends ExecutionOptions<B> {
    HandlerOptions(HandlerSpec spec) {
        super(spec);
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** The label must have this value. */
    public B label(String key, String labelValue) {
        spec.label(key, new Condition.Exact(labelValue));
        return self();
    }

    /** The label's value (null if absent) must pass the predicate. */
    public B label(String key, Predicate<String> predicate) {
        spec.label(key, new Condition.Matching(v -> predicate.test((String) v)));
        return self();
    }

    /** The label must be present, with any value. */
    public B labelPresent(String key) {
        spec.label(key, new Condition.Present());
        return self();
    }

    /** The label must be absent. */
    public B labelAbsent(String key) {
        spec.label(key, new Condition.Absent());
        return self();
    }

    /** The annotation must have this value. */
    public B annotation(String key, String annotationValue) {
        spec.annotation(key, new Condition.Exact(annotationValue));
        return self();
    }

    /** The annotation's value (null if absent) must pass the predicate. */
    public B annotation(String key, Predicate<String> predicate) {
        spec.annotation(key, new Condition.Matching(v -> predicate.test((String) v)));
        return self();
    }

    /** The annotation must be present, with any value. */
    public B annotationPresent(String key) {
        spec.annotation(key, new Condition.Present());
        return self();
    }

    /** The annotation must be absent. */
    public B annotationAbsent(String key) {
        spec.annotation(key, new Condition.Absent());
        return self();
    }

    /** A dotted field path: update and field handlers react to its changes; all need it present. Its id is {@code id/field}. */
    public B field(String path) {
        spec.field(path);
        return self();
    }

    /** The field's value, old or new, must pass the predicate (null when absent). */
    public B value(Predicate<Object> predicate) {
        spec.value(new Condition.Matching(predicate));
        return self();
    }

    /** The field's value before the change must pass the predicate (update and field handlers). */
    public B old(Predicate<Object> predicate) {
        spec.old(new Condition.Matching(predicate));
        return self();
    }

    /** The field's value after the change must pass the predicate (update and field handlers). */
    public B current(Predicate<Object> predicate) {
        spec.current(new Condition.Matching(predicate));
        return self();
    }

    /** The object (and the change) must pass this filter. */
    public B when(Filter filter) {
        spec.when(filter);
        return self();
    }
}
