package io.kopf4j.internal.engines.indexing;

import io.kopf4j.Body;
import io.kopf4j.Index;
import io.kopf4j.Memo;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.actions.Outcome;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.IndexingHandler;
import io.kopf4j.internal.intents.WatchingCause;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.reactor.processing.Indexing;
import io.kopf4j.internal.runtime.Engine;
import io.kopf4j.internal.watching.WatchEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's indexes (Kopf's {@code kopf/_core/engines/indexing.py}): one {@link ObjectIndex}
 * per indexing function, fed with every event of the indexed resources. As Kopf's
 * {@code index_resource}: a DELETED event removes the object's values; any other calls the
 * functions whose filters the object passes, once, never retried, and removes its values from the
 * indexes whose filters it no longer passes. A result replaces the object's values; {@code null},
 * or an error with {@code errors=IGNORED} (the default), keeps them; a temporary error removes them
 * and skips the object for the error's delay (or the function's backoff), a permanent one for good.
 *
 * <pre>{@code
 * IndexingEngine indexes = new IndexingEngine(registry, execution, settings.execution.defaultBackoff);
 * Execution withIndexes = execution.withIndexes(indexes::index);   // handlers reach the indexes
 * Reactor reactor = new Reactor(..., indexes, ...);                 // processing feeds them
 * }</pre>
 */
public final class IndexingEngine implements Indexing, Engine {
    private static final Logger LOG = LoggerFactory.getLogger(IndexingEngine.class);

    private final HandlerRegistry registry;
    private final Execution execution;
    private final Duration defaultBackoff;
    private final Map<String, ObjectIndex> indexes = new LinkedHashMap<>();
    /** Per object, the indexes that skip it after an error, until when. */
    private final Map<String, Map<String, Instant>> skipped = new ConcurrentHashMap<>();
    private final Map<Resource, List<IndexingHandler>> byResource = new ConcurrentHashMap<>();

    /**
     * @param execution how the indexing functions run; they reach the indexes through it too
     * @param defaultBackoff how long a function that failed arbitrarily skips the object, unless it has its own
     */
    public IndexingEngine(HandlerRegistry registry, Execution execution, Duration defaultBackoff) {
        this.registry = registry;
        this.execution = execution.withIndexes(this::index);
        this.defaultBackoff = defaultBackoff;
        registry.indexingHandlers().forEach(handler -> indexes.put(handler.id(), new ObjectIndex()));
    }

    @Override
    public Index<?, ?> index(String id) {
        ObjectIndex index = indexes.get(id);
        if (index == null) {
            throw new IllegalArgumentException("this operator has no index '" + id + "'; its indexes: "
                    + String.join(", ", indexes.keySet()));
        }
        return index;
    }

    @Override
    public void index(Resource resource, WatchEvent event, Memo memo) {
        // Kopf's key is (namespace, name, uid): the uid tells a re-created object from the old one.
        String object = event.key() + "/" + event.uid();
        // Every event of the resource passes here, on its watcher's thread: the registry (synchronized) once per resource.
        List<IndexingHandler> ofResource = byResource.computeIfAbsent(resource, r -> registry.indexingHandlers().stream()
                .filter(handler -> handler.selector().matches(r)).toList());
        if (ofResource.isEmpty()) {
            return;
        }
        try {
            if (event.isDeleted()) {
                ofResource.forEach(handler -> indexes.get(handler.id()).discard(object));
                skipped.remove(object);
                return;
            }
            Map<String, Object> raw = event.object();
            Map<String, Object> rawEvent = new LinkedHashMap<>();
            rawEvent.put("type", event.type());
            rawEvent.put("object", raw);
            WatchingCause cause = new WatchingCause(resource, raw, new Body(raw), new Patch(), ObjectLogger.terse(raw),
                    memo, event.type(), rawEvent);
            Instant now = Instant.now();
            Map<String, Instant> skips = skipped.getOrDefault(object, Map.of());
            List<IndexingHandler> due = ofResource.stream()
                    .filter(handler -> registry.serves(cause) && handler.filters().matchesBody(cause, raw)
                            && !skips.getOrDefault(handler.id(), Instant.MIN).isAfter(now)).toList();
            Map<String, Outcome> outcomes = execution.runIndexing(due, cause);
            for (IndexingHandler handler : ofResource) {
                apply(object, handler, outcomes.get(handler.id()), now);
            }
        } catch (RuntimeException e) {
            LOG.error("Indexing of {} has failed unexpectedly; its indexed values may be stale.", object, e);
        }
    }

    /** Kopf's {@code OperatorIndexers.replace}: one function's outcome (none if it was not called) for the object. */
    private void apply(String object, IndexingHandler handler, Outcome outcome, Instant now) {
        ObjectIndex index = indexes.get(handler.id());
        if (outcome == null) {
            index.discard(object);   // filtered out, or skipped after an error
        } else if (outcome.error() != null) {
            index.discard(object);
            Instant until = outcome.finished() ? Instant.MAX
                    : now.plus(outcome.delay() != null ? outcome.delay()
                            : handler.backoff() != null ? handler.backoff() : defaultBackoff);
            skipped.computeIfAbsent(object, k -> new ConcurrentHashMap<>()).put(handler.id(), until);
        } else {
            Map<String, Instant> skips = skipped.get(object);
            if (skips != null) {
                skips.remove(handler.id());
            }
            if (outcome.result() != null) {
                index.replace(object, outcome.result());
            }
        }
    }
}
