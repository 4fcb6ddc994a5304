package io.kopf4j.internal.intents;

import io.kopf4j.ErrorsMode;
import io.kopf4j.HandlerContext;
import io.kopf4j.HandlerFn;
import java.time.Duration;
import java.util.function.Function;

/**
 * A timer (Kopf's {@code TimerHandler}): one call per interval per object, never overlapping.
 *
 * @param interval the time from the end of a run to the start of the next (with {@code sharp}: between starts), or null
 * @param sharp the runs on a grid of the interval
 * @param idle the quiet time (no essential change) a run waits for, or null
 */
public record TimerHandler(String id, ErrorsMode errors, Duration timeout, Integer retries, Duration backoff,
                           Object param, Filters filters, ResourceSelector selector, HandlerFn function,
                           String origin, Function<HandlerContext, Duration> initialDelay,
                           Duration interval, boolean sharp, Duration idle) implements SpawningHandler {
    @Override
    public String title() {
        return "Timer '" + id + "'";
    }
}
