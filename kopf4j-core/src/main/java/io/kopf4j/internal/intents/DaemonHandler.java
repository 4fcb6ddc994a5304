package io.kopf4j.internal.intents;

import io.kopf4j.ErrorsMode;
import io.kopf4j.HandlerContext;
import io.kopf4j.HandlerFn;
import java.time.Duration;
import java.util.function.Function;

/**
 * A daemon (Kopf's {@code DaemonHandler}): one long-running call per object, restarted after
 * errors as its options say.
 *
 * @param cancellationBackoff how long a stopped daemon may take to exit on its own, or null
 * @param cancellationTimeout how long after the cancellation it is abandoned, or null for never
 * @param cancellationPolling how often a daemon still exiting is reported, or null for the setting
 */
public record DaemonHandler(String id, ErrorsMode errors, Duration timeout, Integer retries, Duration backoff,
                            Object param, Filters filters, ResourceSelector selector, HandlerFn function,
                            String origin, Function<HandlerContext, Duration> initialDelay,
                            Duration cancellationBackoff, Duration cancellationTimeout, Duration cancellationPolling)
        implements SpawningHandler {
    @Override
    public String title() {
        return "Daemon '" + id + "'";
    }
}
