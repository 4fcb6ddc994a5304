package io.kopf4j;

/**
 * The handler ran (with its retries) longer than its {@code timeout}: it fails permanently.
 *
 * <pre>{@code
 * @On.Create(value = "kopfexamples", timeout = 60)
 * void create(Spec spec) {
 *     throw new TemporaryError("not yet", Duration.ofSeconds(10));   // after 60 s: HandlerTimeoutError
 * }
 * }</pre>
 */
public class HandlerTimeoutError extends PermanentError {
    private static final long serialVersionUID = 1L;

    /**
     * An error with this message.
     *
     * @param message what went wrong, in one line
     */
    public HandlerTimeoutError(String message) {
        super(message);
    }
}
