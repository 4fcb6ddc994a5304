package io.kopf4j;

import io.kopf4j.actions.Outcome;
import java.util.Map;

/**
 * An activity failed (Kopf's {@code ActivityError}): some of its handlers failed for good, after the
 * others had finished. Its message names them and why; {@link #outcomes()} has every handler's
 * outcome by id, and the cause is the first failure. A failed startup prevents the start; a failed
 * login, the login.
 */
public class ActivityError extends OperatorException {
    private static final long serialVersionUID = 1L;

    private final transient Map<String, Outcome> outcomes;

    /**
     * @param outcomes every handler's outcome, by id
     * @param cause the first failure
     */
    public ActivityError(String message, Map<String, Outcome> outcomes, Throwable cause) {
        super(message, cause);
        this.outcomes = Map.copyOf(outcomes);
    }

    /** How each handler of the activity ended, by id. */
    public Map<String, Outcome> outcomes() {
        return outcomes;
    }
}
