package io.kopf4j.actions;

import java.time.Duration;
import java.util.Set;

/**
 * How one handler invocation ended.
 *
 * @param finished no more attempts for this change (success, or a permanent failure)
 * @param result the return value (after awaiting a CompletionStage); null on failure or for void
 * @param error the failure, or null
 * @param delay when to try again, for unfinished handlers; null otherwise
 * @param subrefs the ids of sub-handlers it ran
 */
public record Outcome(boolean finished, Object result, Throwable error, Duration delay, Set<String> subrefs) {
    public Outcome {
        subrefs = Set.copyOf(subrefs);
    }

    static Outcome success(Object result) {
        return new Outcome(true, result, null, null, Set.of());
    }

    static Outcome failure(Throwable error) {
        return new Outcome(true, null, error, null, Set.of());
    }

    static Outcome retry(Throwable error, Duration delay) {
        return new Outcome(false, null, error, delay, Set.of());
    }

    public boolean succeeded() {
        return finished && error == null;
    }
}
