package io.kopf4j;

/** The handler failed more often than its {@code retries} allow: it fails permanently. */
public class HandlerRetriesError extends PermanentError {
    private static final long serialVersionUID = 1L;

    /**
     * An error with this message.
     *
     * @param message what went wrong, in one line
     */
    public HandlerRetriesError(String message) {
        super(message);
    }
}
