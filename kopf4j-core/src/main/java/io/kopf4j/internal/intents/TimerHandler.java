package io.kopf4j.internal.intents;

import io.kopf4j.ErrorsMode;
import io.kopf4j.HandlerFn;
import java.time.Duration;

/**
 * A timer (Kopf's {@code TimerHandler}): one call per interval per object, never overlapping.
 *
 * @param options its {@code initialDelay}, {@code interval} (the time from the end of a run to the
 *                start of the next; with {@code sharp}: between starts, on a grid) and {@code idle}
 *                (the quiet time without an essential change that a run waits for)
 */
public record TimerHandler(String id, ErrorsMode errors, Duration timeout, Integer retries, Duration backoff,
                           Object param, Filters filters, ResourceSelector selector, HandlerFn function,
                           String origin, KindOptions options) implements SpawningHandler {
    @Override
    public String title() {
        return "Timer '" + id + "'";
    }
}
