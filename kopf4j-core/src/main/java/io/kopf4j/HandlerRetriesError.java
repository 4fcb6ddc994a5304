package io.kopf4j;

/**
 * The handler failed more often than its {@code retries} allow: it fails permanently.
 *
 * <pre>{@code
 * @On.Create(value = "kopfexamples", retries = 3)
 * void create(Spec spec) {
 *     throw new TemporaryError("not yet");   // after the 3rd attempt: HandlerRetriesError, a permanent failure
 * }
 * }</pre>
 */
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
