package io.kopf4j;

import java.time.Duration;
import java.util.function.Function;

/**
 * A daemon's or timer's initial delay computed per object (Kopf's callable {@code initial_delay},
 * {@code kopf.DelayFn}): asked when the daemon or timer is spawned for an object (again if it is
 * spawned again, e.g. when the object matches its filters again), with the same context its handler
 * gets, before the first call. For {@code initialDelayFn = ...} in
 * {@link Daemon} and {@link Timer}; implementations need a no-argument constructor, as
 * {@link Filter}s do. The builders take a lambda: {@code Handler.daemon(...).initialDelay(context -> ...)}.
 *
 * <p>Kopf's use case: after a restart of the operator every object is listed at once, and a
 * random delay spreads the daemons' starts instead of starting them all in the same second.
 *
 * <pre>{@code
 * public static class Spread implements DelayFn {
 *     public Duration apply(HandlerContext context) {
 *         Object max = context.spec().get("maxDelay");   // seconds, or 60 when not given
 *         long bound = max instanceof Number n ? n.longValue() : 60;
 *         return Duration.ofMillis(ThreadLocalRandom.current().nextLong(bound * 1000 + 1));
 *     }
 * }
 *
 * @Daemon(value = "kopfexamples", initialDelayFn = Spread.class)
 * public void monitor(DaemonStopped stopped) { ... }
 * }</pre>
 *
 * <p>{@code null} or a zero or negative duration means no delay. An exception ends the daemon or
 * timer as one thrown by kopf4j itself would ({@code has failed unexpectedly}), and it is spawned
 * again only with the operator's restart.
 */
@FunctionalInterface
public interface DelayFn extends Function<HandlerContext, Duration> {
    /**
     * The delay for this object.
     *
     * @param context the daemon's or timer's context for the object, as its handler gets it
     * @return how long to wait before the first call; null for no wait
     */
    @Override
    Duration apply(HandlerContext context);
}
