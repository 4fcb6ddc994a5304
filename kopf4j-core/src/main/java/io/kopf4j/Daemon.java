package io.kopf4j;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A long-running task per object (Kopf's {@code @kopf.daemon}): started on its own virtual thread
 * when an object is first seen (created, or listed at the start), stopped when the object is
 * deleted, stops matching the filters (and started again when it matches again), or the operator
 * pauses or exits. The object keeps kopf4j's finalizer while its daemons run.
 *
 * <p>A sync daemon loops until its {@link DaemonStopped} flag is set, waiting on the flag rather
 * than sleeping; an async one returns a {@link java.util.concurrent.CompletionStage}, cancelled at
 * {@link #cancellationTimeout()}. A normal return or a {@link PermanentError} ends the daemon for
 * the life of the process; a {@link TemporaryError} restarts it after its delay, any other exception
 * after {@link #backoff()}, with {@code retry} counting the restarts. Its {@code body}, {@code spec},
 * {@code meta} and {@code status} are live: they show the latest state the watch has seen. Its
 * {@code patch} is applied when it returns; to write sooner, use the {@code KubernetesClient}.
 *
 * <pre>{@code
 * @Daemon(value = "kopfexamples", cancellationBackoff = 1, cancellationTimeout = 3)
 * public void monitor(Spec spec, DaemonStopped stopped, Logger logger) {
 *     while (!stopped.isSet()) {
 *         logger.info("field={}", spec.get("field"));
 *         stopped.await(Duration.ofSeconds(10));
 *     }
 * }
 * }</pre>
 *
 * <p>Named as Kopf names it; in a file that also imports {@code java.util.*}, write
 * {@code @io.kopf4j.Daemon} or import it by name.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Daemon {
    /** {@return the resource selector: one to three strings, as described on {@link On}; empty with {@link #selector()}} */
    String[] value() default {};

    /** {@return the resources as a predicate instead (Kopf's callable selector): any group and version, never Events} */
    Class<? extends ResourceMatcher> selector() default ResourceMatcher.class;

    /** {@return the handler id; by default the method name: it names {@code status.<id>} for the daemon's results} */
    String id() default "";

    /** {@return a value passed to the daemon as its {@code param} parameter} */
    String param() default "";

    /** {@return what an arbitrary exception means: by default, restart after {@link #backoff()}} */
    ErrorsMode errors() default ErrorsMode.TEMPORARY;

    /** {@return seconds since the daemon was started after which it is not restarted any more; negative: never. A running daemon is never stopped by it} */
    double timeout() default -1;

    /** {@return how many attempts before giving up; negative: never} */
    int retries() default -1;

    /** {@return seconds before restarting after an arbitrary exception; negative: the operator's default (60)} */
    double backoff() default -1;

    /** {@return seconds to wait after the object is first seen before starting; negative: none. Excludes {@link #initialDelayFn()}} */
    double initialDelay() default -1;

    /**
     * {@return the initial delay computed per object when the daemon is spawned (Kopf's callable
     * {@code initial_delay}), e.g. a random one to spread the starts after a restart: a class with a
     * no-argument constructor; {@code DelayFn.class} (the default): none. Excludes {@link #initialDelay()}}
     */
    Class<? extends DelayFn> initialDelayFn() default DelayFn.class;

    /** {@return seconds the daemon has to exit on its own once stopped, before it is cancelled; negative: no such stage} */
    double cancellationBackoff() default -1;

    /** {@return seconds after the cancellation before the daemon is abandoned (the object released with it running); negative: never cancelled nor abandoned} */
    double cancellationTimeout() default -1;

    /** {@return how often, in seconds, a daemon that has not exited yet is reported; negative: {@code settings.background.cancellationPolling}} */
    double cancellationPolling() default -1;

    /** {@return label filters, all of which must hold: {@code "key=value"}, {@code "key"} (present), {@code "!key"} (absent)} */
    String[] labels() default {};

    /** {@return annotation filters, as {@link #labels()}} */
    String[] annotations() default {};

    /** {@return predicates on the daemon's context that must all hold; classes with a no-argument constructor} */
    Class<? extends Filter>[] when() default {};

    /** {@return a dotted field path that the object must have (or {@link #fieldValue()}); the id is then {@code method/field}} */
    String field() default "";

    /** {@return the value the field must have: a JSON or plain value, {@link Filter#PRESENT} or {@link Filter#ABSENT}} */
    String fieldValue() default "";
}
