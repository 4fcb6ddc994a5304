package io.kopf4j;

/**
 * What an arbitrary exception from a handler means (Kopf's {@code errors=}); {@link TemporaryError}
 * and {@link PermanentError} always mean what they say.
 *
 * <pre>{@code
 * @On.Create(value = "kopfexamples", errors = ErrorsMode.PERMANENT)   // any exception fails it for good
 * void create(Spec spec) { ... }
 *
 * Handler.create("kopfexamples").id("create").errors(ErrorsMode.IGNORED).handle(context -> null);
 * }</pre>
 */
public enum ErrorsMode {
    /** Retry after the handler's backoff (default for changing handlers). */
    TEMPORARY,
    /** Give up on this change; the next change runs the handler again. */
    PERMANENT,
    /** Log it and go on as if the handler succeeded (default for event handlers). */
    IGNORED
}
