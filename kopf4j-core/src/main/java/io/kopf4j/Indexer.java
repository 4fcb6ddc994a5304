package io.kopf4j;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An indexing function (Kopf's {@code @kopf.index}): called for every object of the resource as it
 * is listed and at every change, before any other handler, to feed an {@link Index} named by the
 * handler id. Its result: a map puts its values under its keys; any other non-null value goes under
 * the {@code null} key; {@code null} keeps the object's previous values. An object's values go when
 * it is deleted or stops passing the filters. Handlers of every resource wait until the indexed
 * resources are listed and indexed, so none sees a partial index (the {@code indexes-ready}
 * readiness check says when). Indexing functions run once per event, never retried: keep them fast.
 * Errors: {@code IGNORED} (the default) keeps the object's old values; {@code TEMPORARY} and
 * {@code PERMANENT} remove them and skip the object for the error's delay, or for good.
 *
 * <pre>{@code
 * @Indexer(value = "pods", labels = "app")
 * Map<String, String> podsByApp(Map<String, String> labels, String name) {
 *     return Map.of(labels.get("app"), name);
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Indexer {
    /** {@return the resource selector: one to three strings, as described on {@link On}; empty with {@link #selector()}} */
    String[] value() default {};

    /** {@return the resources as a predicate instead (Kopf's callable selector): any group and version, never Events} */
    Class<? extends ResourceMatcher> selector() default ResourceMatcher.class;

    /** {@return the index id, by default the method name: handlers get the index as a parameter of this name} */
    String id() default "";

    /** {@return a value passed to the function as its {@code param} parameter} */
    String param() default "";

    /** {@return what an arbitrary exception means: by default, keep the object's old values} */
    ErrorsMode errors() default ErrorsMode.IGNORED;

    /** {@return seconds before the object is indexed again after a temporary error; negative: the operator's default} */
    double backoff() default -1;

    /** {@return label filters, all of which must hold: {@code "key=value"}, {@code "key"} (present), {@code "!key"} (absent)} */
    String[] labels() default {};

    /** {@return annotation filters, as {@link #labels()}} */
    String[] annotations() default {};

    /** {@return predicates on the object that must all hold; classes with a no-argument constructor} */
    Class<? extends Filter>[] when() default {};

    /** {@return a dotted field path that the object must have (or {@link #fieldValue()})} */
    String field() default "";

    /** {@return the value the field must have: a JSON or plain value, {@link Filter#PRESENT} or {@link Filter#ABSENT}} */
    String fieldValue() default "";
}
