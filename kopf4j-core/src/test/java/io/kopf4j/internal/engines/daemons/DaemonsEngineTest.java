package io.kopf4j.internal.engines.daemons;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Body;
import io.kopf4j.DaemonStoppingReason;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.HandlerKind;
import io.kopf4j.Lifecycles;
import io.kopf4j.Memo;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.clients.ObjectPatching;
import io.kopf4j.internal.engines.posting.EventPoster;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerSpec;
import io.kopf4j.internal.intents.SpawningCause;
import io.kopf4j.internal.intents.Specs;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.reactor.processing.ObjectSpawns;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The engine's pause and resume, which no cluster test can reach before peering exists. */
class DaemonsEngineTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of("status"), true, true, List.of("list", "watch", "patch"));
    private static final Map<String, Object> OBJECT = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "metadata", Map.of("name", "ex", "namespace", "ns", "uid", "u1", "resourceVersion", "1"));

    private final List<Set<DaemonStoppingReason>> stops = new CopyOnWriteArrayList<>();
    private final AtomicInteger spawns = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();

    @Test
    void aPauseStopsEveryDaemonAndSpawnsNoneUntilTheResume() {
        OperatorSettings settings = new OperatorSettings();
        HandlerRegistry registry = registry();
        EventPoster poster = new EventPoster(settings.posting, new Metrics(null), write -> "ignored");
        Execution execution = new Execution(Lifecycles.asap(), Duration.ofSeconds(60), settings.persistence.progressStorage,
                new Metrics(null), null, poster, null);
        ObjectPatching patcher = (resource, body, patch, resultsOf, logger) -> new ObjectPatching.Applied(null, List.of());
        DaemonsEngine engine = new DaemonsEngine(registry, new OperatorThreads("test"), settings, new Metrics(null),
                execution, patcher);
        Body body = new Body(OBJECT);
        ObjectSpawns daemons = engine.object(KOPFEXAMPLES, body, new Memo(), ObjectLogger.local(OBJECT), () -> { });
        SpawningCause cause = new SpawningCause(KOPFEXAMPLES, OBJECT, body, new Patch(), ObjectLogger.local(OBJECT),
                new Memo(), false);

        daemons.handle(cause, false);
        await().atMost(Duration.ofSeconds(10)).until(() -> running.get() == 1);

        engine.pause();
        await().atMost(Duration.ofSeconds(10)).until(() -> running.get() == 0);
        // Without cancellation options a daemon not gone within the instant exit is also abandoned (Kopf's stop_daemon).
        assertThat(stops).hasSize(1);
        assertThat(stops.get(0)).contains(DaemonStoppingReason.OPERATOR_PAUSING)
                .doesNotContain(DaemonStoppingReason.OPERATOR_EXITING);
        daemons.handle(cause, false);   // an event processed while paused spawns nothing
        assertThat(spawns.get()).isEqualTo(1);
        assertThat(daemons.foreverStopped()).as("asked to stop: not ended on its own").isEmpty();

        engine.resume();
        daemons.handle(cause, false);
        await().atMost(Duration.ofSeconds(10)).until(() -> running.get() == 1);
        assertThat(spawns.get()).isEqualTo(2);
        engine.stopTakingWork();
        await().atMost(Duration.ofSeconds(10)).until(() -> running.get() == 0);
        assertThat(stops.get(1)).contains(DaemonStoppingReason.OPERATOR_EXITING)
                .doesNotContain(DaemonStoppingReason.OPERATOR_PAUSING);
    }

    private HandlerRegistry registry() {
        HandlerRegistry registry = new HandlerRegistry();
        Specs.spec(HandlerKind.DAEMON, List.of("kopfexamples"), new Option.Id("watch")).register(context -> {
            spawns.incrementAndGet();
            running.incrementAndGet();
            try {
                context.stopped().await();
                stops.add(context.stopped().reason());
            } finally {
                running.decrementAndGet();
            }
            return null;
        }, registry);
        return registry;
    }
}
