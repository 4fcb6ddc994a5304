package io.kopf4j.internal.reactor.processing;

import io.kopf4j.OperatorSettings;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.actions.Outcome;
import io.kopf4j.internal.actions.Results;
import io.kopf4j.internal.actions.State;
import io.kopf4j.internal.intents.ChangingCause;
import io.kopf4j.internal.intents.ChangingHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.structs.SecretValues;
import io.kopf4j.storage.ProgressStorage;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The change-detecting handlers of one cause, as Kopf's {@code process_changing_cause}: their
 * progress read, the due ones run, outcomes, results and progress written into the patch, the
 * progress purged and the diff-base stored when all are done.
 */
final class ChangeHandling {
    private final Resource resource;
    private final HandlerRegistry registry;
    private final OperatorSettings settings;
    private final Execution execution;

    ChangeHandling(Resource resource, HandlerRegistry registry, OperatorSettings settings, Execution execution) {
        this.resource = resource;
        this.registry = registry;
        this.settings = settings;
        this.execution = execution;
    }

    /** Runs the cause's handlers; returns when the unfinished ones are due (empty when all are done). */
    List<Duration> handle(ChangingCause cause, ObjectMemory memory) {
        Reason reason = cause.reason();
        boolean done = false;
        List<Duration> delays = List.of();
        if (reason.runsHandlers()) {
            ProgressStorage progress = settings.persistence.progressStorage;
            String title = title(reason.toString());
            List<ChangingHandler> owned = registry.changingHandlers(resource);
            List<ChangingHandler> selected = registry.changingHandlers(cause);
            State state = State.fromStorage(cause.raw(), progress, owned, cause.logger()).withPurpose(reason.toString(), List.of())
                    .withHandlers(selected);
            for (Map.Entry<String, State.Counts> extra : state.extras().entrySet()) {
                State.Counts counts = extra.getValue();
                cause.logger().info("{} is superseded by {}: {} succeeded; {} failed; {} left to the moment.",
                        title(extra.getKey()), title.toLowerCase(Locale.ROOT), counts.success(), counts.failure(),
                        counts.running());
                state = state.withPurpose(reason.toString(), selected);
            }
            if (!state.extras().isEmpty()) {
                state.purge(cause.raw(), cause.patch(), progress, owned);
            }
            // Guarded: the body's JSON would be written for every cause even with debug logging off.
            if (cause.logger().isDebugEnabled()) {
                cause.logger().debug("{} is in progress: {}", title, Json.compact(SecretValues.digested(cause.raw())));
                if (!cause.diff().isEmpty() && cause.old() != null && cause.current() != null) {
                    cause.logger().debug("{} diff: {}", title, cause.diff());
                }
            }
            done = true;
            if (!selected.isEmpty()) {
                Map<String, Outcome> outcomes = execution.runChanging(selected, state, cause);
                state = state.withOutcomes(outcomes);
                state.store(cause.raw(), cause.patch(), progress);
                outcomes.forEach((id, outcome) -> {
                    if (outcome.succeeded()) {
                        Results.deliver(cause.patch(), id, outcome.result());
                    }
                });
                done = state.done();
                if (done) {
                    State.Counts counts = state.counts();
                    cause.logger().info("{} is processed: {} succeeded; {} failed.", title, counts.success(),
                            counts.failure());
                    state.purge(cause.raw(), cause.patch(), progress, owned);
                }
                delays = state.delays();
            }
        }
        if (done) {
            if (cause.current() != null && !Json.equal(cause.old(), cause.current())) {
                settings.persistence.diffbaseStorage.store(cause.raw(), cause.patch(), cause.current());
            }
            memory.fullyHandledOnce = true;
        }
        switch (reason) {
            case GONE -> cause.logger().debug("Deleted, really deleted, and we are notified.");
            case FREE -> cause.logger().debug("Deletion, but we are done with it, and we do not care.");
            case NOOP -> cause.logger().debug("Something has changed, but we are not interested (the essence is the same).");
            default -> {
                // The handlers' causes: logged above.
            }
        }
        return delays;
    }

    /** Kopf's titles of causes in log lines: Creation, Updating, Deletion, Resuming. */
    private static String title(String purpose) {
        return switch (purpose) {
            case "create" -> "Creation";
            case "update" -> "Updating";
            case "delete" -> "Deletion";
            case "resume" -> "Resuming";
            default -> purpose;
        };
    }
}
