package io.kopf4j;

/**
 * What an arbitrary exception from a handler means (Kopf's {@code errors=}); {@link TemporaryError}
 * and {@link PermanentError} always mean what they say.
 */
public enum ErrorsMode {
    /** Retry after the handler's backoff (default for changing handlers). */
    TEMPORARY,
    /** Give up on this change; the next change runs the handler again. */
    PERMANENT,
    /** Log it and go on as if the handler succeeded (default for event handlers). */
    IGNORED
}
