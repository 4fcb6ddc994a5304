package io.kopf4j.internal.actions;

import io.kopf4j.TemporaryError;
import java.time.Duration;

/**
 * Kopf's {@code HandlerChildrenRetry}: some sub-handlers are unfinished, so their parent is retried
 * when the earliest of them is due, with less logging than a failure. Thrown out of the parent
 * handler by {@link io.kopf4j.HandlerContext#execute()}; it is a {@link TemporaryError}, so a
 * handler that catches those lets it pass.
 */
final class HandlerChildrenRetry extends TemporaryError {
    private static final long serialVersionUID = 1L;

    HandlerChildrenRetry(Duration delay) {
        super("unfinished sub-handlers", delay);
    }
}
