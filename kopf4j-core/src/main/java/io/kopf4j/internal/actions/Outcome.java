package io.kopf4j.internal.actions;

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

    /** Finished without an error (an ignored error included). */
    public boolean succeeded() {
        return finished && error == null;
    }
}
