package io.kopf4j.actions;

/**
 * How one handler invocation ended.
 *
 * @param result the return value (after awaiting a CompletionStage); null on failure or for void
 * @param error the failure, or null on success
 */
public record Outcome(Object result, Throwable error) {
    public static Outcome success(Object result) {
        return new Outcome(result, null);
    }

    public static Outcome failure(Throwable error) {
        return new Outcome(null, error);
    }

    public boolean succeeded() {
        return error == null;
    }
}
