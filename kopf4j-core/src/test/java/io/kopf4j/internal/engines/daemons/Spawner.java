package io.kopf4j.internal.engines.daemons;

import io.kopf4j.Body;
import io.kopf4j.Lifecycles;
import io.kopf4j.Memo;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.clients.ObjectPatching;
import io.kopf4j.internal.engines.posting.EventPoster;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.SpawningCause;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.reactor.processing.ObjectSpawns;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The daemons engine of a registry with a fake patcher, and objects spawned into it as processing
 * spawns them: a test of daemons and timers without an API server.
 *
 * <pre>{@code
 * Spawner spawner = new Spawner(registry, patcher);
 * spawner.spawn(Map.of("metadata", Map.of("name", "ex", ...), "spec", Map.of(...)));
 * spawner.engine().stopTakingWork();
 * }</pre>
 */
final class Spawner {
    static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of("status"), true, true, List.of("list", "watch", "patch"));

    private final DaemonsEngine engine;

    Spawner(HandlerRegistry registry, ObjectPatching patcher) {
        OperatorSettings settings = new OperatorSettings();
        EventPoster poster = new EventPoster(settings.posting, new Metrics(null), write -> "ignored");
        Execution execution = new Execution(Lifecycles.asap(), Duration.ofSeconds(60), settings.persistence.progressStorage,
                new Metrics(null), null, poster, null);
        engine = new DaemonsEngine(registry, new OperatorThreads("test"), settings, new Metrics(null), execution, patcher);
    }

    DaemonsEngine engine() {
        return engine;
    }

    /** A KopfExample in namespace {@code ns} with this name and spec. */
    static Map<String, Object> object(String name, Map<String, Object> spec) {
        return Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample", "metadata",
                Map.of("name", name, "namespace", "ns", "uid", "uid-" + name, "resourceVersion", "1"), "spec", spec);
    }

    /** The object first seen: its daemons and timers are spawned. */
    ObjectSpawns spawn(Map<String, Object> raw) {
        Body body = new Body(raw);
        ObjectSpawns spawns = engine.object(KOPFEXAMPLES, body, new Memo(), ObjectLogger.local(raw), () -> { });
        spawns.handle(new SpawningCause(KOPFEXAMPLES, raw, body, new Patch(), ObjectLogger.local(raw), new Memo(), false),
                false);
        return spawns;
    }
}
