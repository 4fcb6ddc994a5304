package io.kopf4j.reactor;

import io.kopf4j.Body;
import io.kopf4j.Diff;
import io.kopf4j.Patch;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import io.kopf4j.actions.Invocation;
import io.kopf4j.actions.Outcome;
import io.kopf4j.actions.Results;
import io.kopf4j.clients.ObjectPatcher;
import io.kopf4j.intents.Causes;
import io.kopf4j.intents.ChangingHandler;
import io.kopf4j.intents.HandlerRegistry;
import io.kopf4j.logging.ObjectLogger;
import io.kopf4j.storage.DiffBaseStorage;
import io.kopf4j.structs.Diffs;
import io.kopf4j.structs.Json;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Processes one event of one object end to end: detects the cause from the stored diff-base,
 * runs the matching handlers, and sends one patch with their results and the new diff-base.
 */
final class EventProcessor {
    private final Resource resource;
    private final HandlerRegistry registry;
    private final DiffBaseStorage diffBase;
    private final ObjectPatcher patcher;
    private final Duration handlerBackoff;

    EventProcessor(Resource resource, HandlerRegistry registry, DiffBaseStorage diffBase, ObjectPatcher patcher,
                   Duration handlerBackoff) {
        this.resource = resource;
        this.registry = registry;
        this.diffBase = diffBase;
        this.patcher = patcher;
        this.handlerBackoff = handlerBackoff;
    }

    ProcessingResult process(WatchEvent event, ObjectMemory memory) {
        Map<String, Object> raw = event.object();
        Body body = new Body(raw);
        ObjectLogger logger = new ObjectLogger(event.namespace(), event.name());

        Map<String, Object> old = diffBase.fetch(raw);
        Map<String, Object> current = diffBase.build(raw);
        Diff diff = Diffs.between(old, current);
        // No finalizer is ever put by the handlers served so far, so a deletion is always FREE.
        Reason reason = Causes.detect(event.isDeleted(), body.meta().deletionTimestamp() != null, false,
                old != null, diff, memory.initial());
        switch (reason) {
            case GONE -> {
                logger.debug("Deleted, really deleted, and feels good.");
                return ProcessingResult.NOTHING;
            }
            case FREE -> {
                return ProcessingResult.NOTHING;
            }
            case NOOP -> {
                logger.debug("Something has changed, but we are not interested (the essence is the same).");
                return ProcessingResult.NOTHING;
            }
            default -> {
                return handle(event, memory, new ChangeContext(body, new Patch(), logger, reason, resource, diff, old, current));
            }
        }
    }

    private ProcessingResult handle(WatchEvent event, ObjectMemory memory, ChangeContext context) {
        List<ChangingHandler> handlers = registry.handlers(resource, context.reason());
        Patch patch = context.patch();
        int succeeded = 0;
        for (ChangingHandler handler : handlers) {
            Outcome outcome = Invocation.invoke(handler, context);
            if (outcome.succeeded()) {
                Results.deliver(patch, handler.id(), outcome.result());
                succeeded++;
            }
        }
        int failed = handlers.size() - succeeded;
        if (!handlers.isEmpty()) {
            context.logger().info("{} is processed: {} succeeded; {} failed.", title(context.reason()), succeeded, failed);
        }
        if (failed == 0) {
            if (!Json.equal(context.old(), context.current())) {
                diffBase.store(event.object(), patch, context.current());
            }
            memory.fullyHandledOnce = true;
        }
        String version = patch.isEmpty() ? null : patcher.patch(resource, event.namespace(), event.name(), patch.toMap());
        return new ProcessingResult(version, failed == 0 ? null : handlerBackoff);
    }

    private static String title(Reason reason) {
        return switch (reason) {
            case CREATE -> "Creation";
            case UPDATE -> "Updating";
            case DELETE -> "Deletion";
            case RESUME -> "Resuming";
            default -> throw new IllegalArgumentException("no handlers for " + reason);
        };
    }
}
