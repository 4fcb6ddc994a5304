package io.kopf4j;

import java.util.Map;

/**
 * An activity failed (Kopf's {@code ActivityError}): some of its handlers failed for good, after the
 * others had finished. Its message names them and why; {@link #failures()} has each failed
 * handler's error by id, and the cause is the first failure. A failed startup prevents the start; a failed
 * login, the login.
 *
 * <pre>{@code
 * try (Operator operator = Operator.builder().handlers(new Example()).build()) {
 *     operator.start();
 * } catch (ActivityError e) {   // a startup handler failed for good
 *     e.failures().forEach((id, error) -> System.err.println(id + ": " + error.getMessage()));
 * }
 * }</pre>
 */
public class ActivityError extends OperatorException {
    private static final long serialVersionUID = 1L;

    private final transient Map<String, Throwable> failures;

    /**
     * The failure of the activity's handlers.
     *
     * @param message which handlers failed and why
     * @param failures each failed handler's error, by id
     * @param cause the first failure
     */
    public ActivityError(String message, Map<String, Throwable> failures, Throwable cause) {
        super(message, cause);
        this.failures = Map.copyOf(failures);
    }

    /** {@return each handler that failed for good, with its error, by id} */
    public Map<String, Throwable> failures() {
        return failures;
    }
}
