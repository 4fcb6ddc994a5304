package io.kopf4j.internal.engines.daemons;

import io.kopf4j.HandlerContext;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import io.kopf4j.TemporaryError;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.actions.Outcome;
import io.kopf4j.internal.actions.Results;
import io.kopf4j.internal.actions.State;
import io.kopf4j.internal.clients.ObjectPatching;
import io.kopf4j.internal.intents.DaemonCause;
import io.kopf4j.internal.intents.SpawningHandler;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;

/**
 * One call of a daemon or timer and what follows it (Kopf's loop body in {@code _daemon} and
 * {@code _timer}): the attempt, its result into {@code status.<id>}, the patch applied straight
 * from the daemon's thread (not through the object's queue), and a fresh patch for the next call
 * that carries the functions which met a newer object.
 */
final class Iteration {
    private final Execution execution;
    private final ObjectPatching patcher;
    private final Resource resource;

    Iteration(Execution execution, ObjectPatching patcher, Resource resource) {
        this.execution = execution;
        this.patcher = patcher;
        this.resource = resource;
    }

    /** What one call left: the handler's state, the cause for the next call, and the call's outcome (null if not due). */
    record Done(State state, DaemonCause next, Outcome outcome) {
        /** How the restart metric names a failure that calls the handler again: temporary, exception. */
        String restartCause() {
            return outcome != null && outcome.error() instanceof TemporaryError ? "temporary" : "exception";
        }
    }

    Done run(SpawningHandler handler, State state, DaemonCause cause, Logger local) {
        Map<String, Outcome> outcomes = execution.runSpawned(handler, state, cause);
        Outcome outcome = outcomes.get(handler.id());
        if (outcome != null && outcome.succeeded()) {
            Results.deliver(cause.patch(), handler.id(), outcome.result());
        }
        DaemonCause next = cause;
        if (!cause.patch().isEmpty()) {
            Map<String, Object> latest = new LinkedHashMap<>(cause.body());
            ObjectPatching.Applied applied = patcher.apply(resource, latest, cause.patch(), Set.of(handler.id()), local);
            next = cause.with(new Patch(applied.remainingFns()));
        }
        return new Done(state.withOutcomes(outcomes), next, outcome);
    }

    /** The handler's initial delay for this object, or null for none. */
    static Duration initialDelay(SpawningHandler handler, HandlerContext context) {
        return handler.options().get(Option.ComputedInitialDelay.class).map(delay -> delay.delay().apply(context))
                .orElse(null);
    }
}
