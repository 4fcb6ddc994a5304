package io.kopf4j.internal.intents;

import io.kopf4j.ErrorsMode;
import java.time.Duration;

/**
 * What the execution of handlers needs of any handler, as Kopf's base {@code Handler}: its id and the
 * options that decide what its exceptions mean. Changing handlers, sub-handlers, event handlers and
 * activities all run through the same rules; options left null take the caller's defaults.
 */
public interface ExecutableHandler {
    /** The id: where its progress and result are kept, and how log lines name it. */
    String id();

    /** What arbitrary exceptions mean, or null for the default of the kind of handler. */
    default ErrorsMode errors() {
        return null;
    }

    /** Give up after this long since the first attempt, or null for never. */
    default Duration timeout() {
        return null;
    }

    /** Give up after this many attempts, or null for never. */
    default Integer retries() {
        return null;
    }

    /** The delay after an arbitrary exception, or null for {@code settings.execution.defaultBackoff}. */
    default Duration backoff() {
        return null;
    }

    /** How Kopf's log lines name it: {@code Handler 'id'} (activities, indexers, daemons, timers, webhooks: {@code Activity 'id'}, {@code Indexer 'id'}, ...). */
    default String title() {
        return "Handler '" + id() + "'";
    }
}
