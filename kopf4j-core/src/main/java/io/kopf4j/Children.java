package io.kopf4j;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The children of an object, declared by a method that returns all of them: kopf4j makes each the
 * object's own (an owner reference, its name, namespace and labels as {@code Hierarchies.adopt}
 * sets them), applies them with server-side apply under the operator's field manager, deletes the
 * ones no longer returned, watches them, and calls the method again when one of them changes (a
 * hand edit is put back, a deleted child comes back, a child's status reaches the parent) or when
 * the object's essence does. No write is made when the applied children would not change.
 *
 * <pre>{@code
 * @Children(value = "databases", kinds = {StatefulSet.class, Service.class}, readyCondition = "Ready")
 * public List<HasMetadata> children(DatabaseSpec spec, String name) {
 *     return List.of(statefulSet(name, spec), service(name));
 * }
 * }</pre>
 *
 * <p>The method takes the parameters of any handler and returns a fabric8 object, a JSON map, or an
 * iterable or array of them; none (null or empty) deletes every child. Its errors are retried as a
 * timer's are ({@code errors}, {@code timeout}, {@code retries}, {@code backoff}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Children {
    /** {@return the parents' resource selector, as in the {@link On} annotations} */
    String[] value();

    /** {@return the kinds of the children as fabric8 types, e.g. {@code Deployment.class}: each is watched} */
    Class<? extends HasMetadata>[] kinds() default {};

    /** {@return the kinds of the children as resource selectors, e.g. {@code "cronjobs.batch"}: each is watched} */
    String[] resources() default {};

    /** {@return the condition kept true on the parent while all its children are ready ({@code kits.Readiness}); none if empty} */
    String readyCondition() default "";

    /** {@return the handler id; the method's name if empty} */
    String id() default "";

    /** {@return the value passed as the handler's {@code param}} */
    String param() default "";

    /** {@return what an arbitrary exception means} */
    ErrorsMode errors() default ErrorsMode.TEMPORARY;

    /** {@return seconds from the first attempt after which it gives up; negative: never} */
    double timeout() default -1;

    /** {@return attempts after which it gives up; negative: never} */
    int retries() default -1;

    /** {@return seconds before a retry after an arbitrary exception; negative: the default (60)} */
    double backoff() default -1;

    /** {@return the parents' label filters: {@code "key=value"}, {@code "key"} or {@code "!key"}} */
    String[] labels() default {};

    /** {@return the parents' annotation filters, as labels} */
    String[] annotations() default {};

    /** {@return predicates the parent must pass} */
    Class<? extends Filter>[] when() default {};
}
