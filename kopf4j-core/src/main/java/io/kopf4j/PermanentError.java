package io.kopf4j;

/**
 * Thrown by a handler that cannot succeed for this change: it is not retried until the object
 * changes again. The message is stored in the handler's progress record.
 */
public class PermanentError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PermanentError(String message) {
        super(message);
    }

    public PermanentError(String message, Throwable cause) {
        super(message, cause);
    }
}
