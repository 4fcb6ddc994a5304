package io.kopf4j;

import io.kopf4j.HandlerDescription.Option;
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
    HandlerOptions(HandlerKind kind, String... resource) {
        super(kind, resource);
    }

    /**
     * The label must have this value.
     *
     * @param key the label's key, e.g. {@code "app"}
     * @param labelValue the value it must have, e.g. {@code "web"}
     * @return this builder
     */
    public B label(String key, String labelValue) {
        return add(new Option.Label(key, new Condition.Exact(labelValue)));
    }

    /**
     * The label's value (null if absent) must pass the predicate.
     *
     * @param key the label's key, e.g. {@code "app"}
     * @param predicate tests the value, e.g. {@code v -> v != null && v.startsWith("web-")}
     * @return this builder
     */
    public B label(String key, Predicate<String> predicate) {
        return add(new Option.Label(key, new Condition.Matching(v -> predicate.test((String) v))));
    }

    /**
     * The label must be present, with any value.
     *
     * @param key the label's key, e.g. {@code "app"}
     * @return this builder
     */
    public B labelPresent(String key) {
        return add(new Option.Label(key, new Condition.Present()));
    }

    /**
     * The label must be absent.
     *
     * @param key the label's key, e.g. {@code "app"}
     * @return this builder
     */
    public B labelAbsent(String key) {
        return add(new Option.Label(key, new Condition.Absent()));
    }

    /**
     * The annotation must have this value.
     *
     * @param key the annotation's key, e.g. {@code "example.com/mode"}
     * @param annotationValue the value it must have, e.g. {@code "strict"}
     * @return this builder
     */
    public B annotation(String key, String annotationValue) {
        return add(new Option.Annotation(key, new Condition.Exact(annotationValue)));
    }

    /**
     * The annotation's value (null if absent) must pass the predicate.
     *
     * @param key the annotation's key, e.g. {@code "example.com/mode"}
     * @param predicate tests the value, e.g. {@code v -> v == null || v.isEmpty()}
     * @return this builder
     */
    public B annotation(String key, Predicate<String> predicate) {
        return add(new Option.Annotation(key, new Condition.Matching(v -> predicate.test((String) v))));
    }

    /**
     * The annotation must be present, with any value.
     *
     * @param key the annotation's key, e.g. {@code "example.com/paused"}
     * @return this builder
     */
    public B annotationPresent(String key) {
        return add(new Option.Annotation(key, new Condition.Present()));
    }

    /**
     * The annotation must be absent.
     *
     * @param key the annotation's key, e.g. {@code "example.com/paused"}
     * @return this builder
     */
    public B annotationAbsent(String key) {
        return add(new Option.Annotation(key, new Condition.Absent()));
    }

    /**
     * A dotted field path: update and field handlers react to its changes; all need it present. Its id is
     * {@code id/field}.
     *
     * @param path the field's dotted path from the object's root, e.g. {@code "spec.size"}
     * @return this builder
     */
    public B field(String path) {
        return add(new Option.Field(path));
    }

    /**
     * The field's value, old or new, must pass the predicate (null when absent).
     *
     * @param predicate tests the field's value, as parsed from JSON: a {@code String}, number, {@code Boolean},
     *     {@code Map} or {@code List}
     * @return this builder
     */
    public B value(Predicate<Object> predicate) {
        return add(new Option.Value(new Condition.Matching(predicate)));
    }

    /**
     * The field's value before the change must pass the predicate (update and field handlers).
     *
     * @param predicate tests the old value (null when the field was absent), as parsed from JSON
     * @return this builder
     */
    public B old(Predicate<Object> predicate) {
        return add(new Option.Old(new Condition.Matching(predicate)));
    }

    /**
     * The field's value after the change must pass the predicate (update and field handlers).
     *
     * @param predicate tests the new value (null when the field is absent now), as parsed from JSON
     * @return this builder
     */
    public B current(Predicate<Object> predicate) {
        return add(new Option.Current(new Condition.Matching(predicate)));
    }

    /**
     * The object (and the change) must pass this filter.
     *
     * @param filter tests the object in its handler context, e.g.
     *     {@code context -> context.spec().getInt("size", 0) > 0}
     * @return this builder
     */
    public B when(Filter filter) {
        return add(new Option.When(filter));
    }

    /**
     * The handler's resources as a predicate, asked for every served resource of any group and
     * version (Kopf's callable selector), instead of a resource named in {@code Handler.event(...)},
     * which must then be empty.
     *
     * @param matcher decides for each resource, e.g. {@code resource -> resource.group().endsWith("argoproj.io")}
     * @return this builder
     */
    public B selector(ResourceMatcher matcher) {
        return add(new Option.Selector(matcher));
    }
}
