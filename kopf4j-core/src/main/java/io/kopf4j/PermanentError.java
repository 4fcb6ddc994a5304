package io.kopf4j;

/**
 * Thrown by a handler that cannot succeed for this change: it is not retried until the object
 * changes again. The message is stored in the handler's progress record.
 *
 * <pre>{@code
 * @On.Create("kopfexamples")
 * void create(Spec spec) {
 *     if (spec.getInt("size", 0) < 0) throw new PermanentError("spec.size must not be negative");
 * }
 * }</pre>
 */
public class PermanentError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An error with this message.
     *
     * @param message what went wrong, in one line
     */
    public PermanentError(String message) {
        super(message);
    }

    /**
     * An error with this message and cause.
     *
     * @param message what went wrong, in one line
     * @param cause the underlying exception
     */
    public PermanentError(String message, Throwable cause) {
        super(message, cause);
    }
}
