package io.kopf4j;

/** The handler failed more often than its {@code retries} allow: it fails permanently. */
public class HandlerRetriesError extends PermanentError {
    private static final long serialVersionUID = 1L;

    public HandlerRetriesError(String message) {
        super(message);
    }
}
