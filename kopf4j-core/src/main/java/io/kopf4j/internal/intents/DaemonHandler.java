package io.kopf4j.internal.intents;

import io.kopf4j.ErrorsMode;
import io.kopf4j.HandlerFn;
import java.time.Duration;

/**
 * A daemon (Kopf's {@code DaemonHandler}): one long-running call per object, restarted after
 * errors as its options say.
 *
 * @param options its {@code initialDelay} and {@code cancellation*} options: how long a stopped
 *                daemon may take to exit on its own, how long after the cancellation it is abandoned
 *                (none: never), how often a daemon still exiting is reported (none: the setting)
 */
public record DaemonHandler(String id, ErrorsMode errors, Duration timeout, Integer retries, Duration backoff,
                            Object param, Filters filters, ResourceSelector selector, HandlerFn function,
                            String origin, KindOptions options)
        implements SpawningHandler {
    @Override
    public String title() {
        return "Daemon '" + id + "'";
    }
}
