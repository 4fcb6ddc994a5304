package io.kopf4j;

/** The handler ran (with its retries) longer than its {@code timeout}: it fails permanently. */
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
