package io.kopf4j.reactor;

import io.kopf4j.Body;
import io.kopf4j.Diff;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Patch;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import io.kopf4j.actions.Execution;
import io.kopf4j.actions.Outcome;
import io.kopf4j.actions.Results;
import io.kopf4j.actions.State;
import io.kopf4j.clients.ObjectPatcher;
import io.kopf4j.engines.EventPoster;
import io.kopf4j.engines.Metrics;
import io.kopf4j.intents.Cause;
import io.kopf4j.intents.Causes;
import io.kopf4j.intents.ChangingHandler;
import io.kopf4j.intents.HandlerRegistry;
import io.kopf4j.logging.ObjectLogger;
import io.kopf4j.storage.Finalizers;
import io.kopf4j.storage.ProgressRecord;
import io.kopf4j.storage.ProgressStorage;
import io.kopf4j.structs.Diffs;
import io.kopf4j.structs.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * Processes one event of one object end to end, as Kopf's {@code process_resource_event}: event
 * handlers; the stealth check; the finalizer decision; the changing handlers with their progress,
 * results and the diff-base; the release of a deleted object; then one application of the
 * accumulated patch.
 */
final class EventProcessor {
    private final Resource resource;
    private final HandlerRegistry registry;
    private final OperatorSettings settings;
    private final Execution execution;
    private final ObjectPatcher patcher;
    private final EventPoster poster;

    EventProcessor(Resource resource, HandlerRegistry registry, OperatorSettings settings, ObjectPatcher patcher,
                   Metrics metrics, EventPoster poster, Semaphore handlerSlots) {
        this.poster = poster;
        this.resource = resource;
        this.registry = registry;
        this.settings = settings;
        this.execution = new Execution(settings.execution.lifecycle, settings.execution.defaultBackoff,
                settings.persistence.progressStorage, metrics, handlerSlots, poster);
        this.patcher = patcher;
    }

    ProcessingResult process(WatchEvent event, ObjectMemory memory) {
        Map<String, Object> raw = event.object();
        Body body = new Body(raw);
        // Kopf's loggers: the framework's own lines and event handlers' never become Events.
        ObjectLogger logger = ObjectLogger.local(raw);
        Patch patch = new Patch(memory.remainingFns);
        boolean pendingFns = !patch.isEmpty();
        ProgressStorage progress = settings.persistence.progressStorage;
        String finalizer = settings.persistence.finalizer;

        Map<String, Object> old = settings.persistence.diffbaseStorage.fetch(raw);
        old = old == null ? null : progress.clear(old);
        Map<String, Object> current = progress.clear(settings.persistence.diffbaseStorage.build(raw));
        Diff diff = Diffs.between(old, current);
        boolean deleting = Finalizers.isDeletionOngoing(raw);

        if (registry.hasWatchingHandlers(resource)) {
            Map<String, Object> rawEvent = new LinkedHashMap<>();
            rawEvent.put("type", event.type());
            rawEvent.put("object", raw);
            Cause watching = new Cause(resource, raw, body, patch, logger, memory.memo, null, false, deleting,
                    Diffs.between(null, null), old, current, event.type(), rawEvent);
            deliver(execution.runWatching(registry.watchingHandlers(watching), watching), patch);
        }

        boolean blocked = Finalizers.isDeletionBlocked(raw, finalizer);
        Reason reason = Causes.detect(event.isDeleted(), deleting, blocked, old != null, diff, memory.initial());
        Cause cause = new Cause(resource, raw, body, patch, ObjectLogger.posting(raw, poster), memory.memo, reason,
                memory.initial(), deleting, diff, old, current, event.type(), null);
        boolean changing = registry.prematches(cause);
        boolean mustBlock = changing && registry.requiresFinalizer(cause);
        if (mustBlock && !blocked && !deleting) {
            logger.debug("Adding the finalizer, thus preventing the actual deletion.");
            patch.fns().add(Finalizers.blockDeletion(finalizer));
            changing = false;
        }
        if (!mustBlock && blocked) {
            logger.debug("Removing the finalizer, as there are no handlers requiring it.");
            patch.fns().add(Finalizers.allowDeletion(finalizer));
            changing = false;
        }
        if (changing && pendingFns) {
            // Functions left by the last cycle go first; the handlers need the state they produce.
            return apply(event, patch, logger, List.of(), false);
        }

        List<Duration> delays = changing ? handleChange(cause, memory) : List.of();
        if (deleting && blocked && delays.isEmpty() && changing) {
            logger.debug("Removing the finalizer, thus allowing the actual deletion.");
            patch.fns().add(Finalizers.allowDeletion(finalizer));
        }
        if (event.isDeleted()) {
            return ProcessingResult.NOTHING;
        }
        return apply(event, patch, logger, delays, changing);
    }

    /** Writes the touch marker, to be woken by its watch event when handlers are due. */
    String touch(WatchEvent event) {
        Patch patch = new Patch();
        settings.persistence.progressStorage.touch(event.object(), patch, ProgressRecord.format(Instant.now()));
        ObjectLogger logger = ObjectLogger.local(event.object());
        if (patch.isEmpty()) {
            return null;
        }
        logger.debug("Provoking reaction with: {}", patch);
        return patcher.apply(resource, event.object(), patch, logger).resourceVersion();
    }

    private List<Duration> handleChange(Cause cause, ObjectMemory memory) {
        Reason reason = cause.reason();
        switch (reason) {
            case GONE -> {
                cause.logger().debug("Deleted, really deleted, and feels good.");
                return List.of();
            }
            case FREE -> {
                cause.logger().debug("Deletion, but we are done with it, and we do not care.");
                return List.of();
            }
            case NOOP -> {
                cause.logger().debug("Something has changed, but we are not interested (the essence is the same).");
                return List.of();
            }
            default -> {
                // CREATE, UPDATE, DELETE, RESUME: the handlers' business, below.
            }
        }
        ProgressStorage progress = settings.persistence.progressStorage;
        String title = title(reason);
        List<ChangingHandler> owned = registry.changingHandlers(resource);
        List<ChangingHandler> selected = registry.changingHandlers(cause);
        State state = State.fromStorage(cause.raw(), progress, owned).withPurpose(reason.toString(), List.of()).withHandlers(selected);
        Map<String, State.Counts> extras = state.extras();
        for (Map.Entry<String, State.Counts> extra : extras.entrySet()) {
            State.Counts counts = extra.getValue();
            cause.logger().info("{} is superseded by {}: {} succeeded; {} failed; {} left to the moment.",
                    title(extra.getKey()), title.toLowerCase(Locale.ROOT), counts.success(), counts.failure(), counts.running());
            state = state.withPurpose(reason.toString(), selected);
        }
        if (!state.extras().isEmpty()) {
            state.purge(cause.raw(), cause.patch(), progress, owned);
        }
        cause.logger().debug("{} is in progress: {}", title, Json.compact(cause.raw()));
        if (!cause.diff().isEmpty() && cause.old() != null) {
            cause.logger().debug("{} diff: {}", title, cause.diff());
        }

        boolean done = true;
        List<Duration> delays = List.of();
        if (!selected.isEmpty()) {
            Map<String, Outcome> outcomes = execution.runChanging(selected, state, cause);
            state = state.withOutcomes(outcomes);
            state.store(cause.raw(), cause.patch(), progress);
            deliver(outcomes, cause.patch());
            done = state.done();
            if (done) {
                State.Counts counts = state.counts();
                cause.logger().info("{} is processed: {} succeeded; {} failed.", title, counts.success(), counts.failure());
                state.purge(cause.raw(), cause.patch(), progress, owned);
            }
            delays = state.delays();
        }
        if (done) {
            if (!Json.equal(cause.old(), cause.current())) {
                settings.persistence.diffbaseStorage.store(cause.raw(), cause.patch(), cause.current());
            }
            memory.fullyHandledOnce = true;
        }
        return delays;
    }

    private ProcessingResult apply(WatchEvent event, Patch patch, ObjectLogger logger, List<Duration> delays,
                                   boolean matched) {
        if (patch.isEmpty()) {
            return new ProcessingResult(null, delays, List.of(), matched);
        }
        settings.persistence.progressStorage.touch(event.object(), patch, null);
        ObjectPatcher.Applied applied = patcher.apply(resource, event.object(), patch, logger);
        return new ProcessingResult(applied.resourceVersion(), delays, applied.remainingFns(), matched);
    }

    private static void deliver(Map<String, Outcome> outcomes, Patch patch) {
        outcomes.forEach((id, outcome) -> {
            if (outcome.succeeded()) {
                Results.deliver(patch, id, outcome.result());
            }
        });
    }

    private static String title(Reason reason) {
        return title(reason.toString());
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
