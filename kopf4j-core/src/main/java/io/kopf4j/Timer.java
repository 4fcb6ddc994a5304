package io.kopf4j;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Periodic work per object (Kopf's {@code @kopf.timer}): runs every {@link #interval()} seconds
 * while the object exists and matches the filters, never overlapping itself; with {@link #idle()},
 * only after the object has had no essential change (spec, labels, annotations) for that long. The
 * result goes to {@code status.<id>} and the {@code patch} is applied after each run. A
 * {@link TemporaryError} runs it again after its delay, any other exception after {@link #backoff()};
 * after a success the interval applies again. The object keeps kopf4j's finalizer while its timers run.
 *
 * <pre>{@code
 * @Timer(value = "kopfexamples", interval = 60, idle = 600)
 * public Map<String, Object> ping(Spec spec, Logger logger) {
 *     logger.info("Still here: {}", spec.get("field"));
 *     return Map.of("pinged", Instant.now().toString());
 * }
 * }</pre>
 *
 * <p>Named as Kopf names it; in a file that also imports {@code java.util.*} (which has its own
 * {@code Timer}), write {@code @io.kopf4j.Timer} or import it by name.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Timer {
    /** {@return the resource selector: one to three strings, as described on {@link On}; empty with {@link #selector()}} */
    String[] value() default {};

    /** {@return the resources as a predicate instead (Kopf's callable selector): any group and version, never Events} */
    Class<? extends ResourceMatcher> selector() default ResourceMatcher.class;

    /** {@return the handler id; by default the method name: it names {@code status.<id>} for the results} */
    String id() default "";

    /** {@return a value passed to the timer as its {@code param} parameter} */
    String param() default "";

    /** {@return what an arbitrary exception means: by default, run again after {@link #backoff()}} */
    ErrorsMode errors() default ErrorsMode.TEMPORARY;

    /** {@return seconds of failing attempts after which the timer gives up until its next interval; negative: never} */
    double timeout() default -1;

    /** {@return how many failing attempts before giving up until the next interval; negative: never} */
    int retries() default -1;

    /** {@return seconds before running again after an arbitrary exception; negative: the operator's default (60)} */
    double backoff() default -1;

    /** {@return seconds from the end of one run to the start of the next; negative: none (with {@link #idle()} only: once per quiet period)} */
    double interval() default -1;

    /** {@return keep the runs on a grid of {@link #interval()} from their starts, not from their ends} */
    boolean sharp() default false;

    /** {@return run only after this many seconds without an essential change of the object; negative: always} */
    double idle() default -1;

    /** {@return seconds to wait after the object is first seen before the first run; negative: none. Excludes {@link #initialDelayFn()}} */
    double initialDelay() default -1;

    /**
     * {@return the initial delay computed per object when the timer is spawned (Kopf's callable
     * {@code initial_delay}), e.g. a random one to spread the first runs after a restart: a class
     * with a no-argument constructor; {@code DelayFn.class} (the default): none. Excludes {@link #initialDelay()}}
     */
    Class<? extends DelayFn> initialDelayFn() default DelayFn.class;

    /** {@return label filters, all of which must hold: {@code "key=value"}, {@code "key"} (present), {@code "!key"} (absent)} */
    String[] labels() default {};

    /** {@return annotation filters, as {@link #labels()}} */
    String[] annotations() default {};

    /** {@return predicates on the timer's context that must all hold; classes with a no-argument constructor} */
    Class<? extends Filter>[] when() default {};

    /** {@return a dotted field path that the object must have (or {@link #fieldValue()}); the id is then {@code method/field}} */
    String field() default "";

    /** {@return the value the field must have: a JSON or plain value, {@link Filter#PRESENT} or {@link Filter#ABSENT}} */
    String fieldValue() default "";
}
