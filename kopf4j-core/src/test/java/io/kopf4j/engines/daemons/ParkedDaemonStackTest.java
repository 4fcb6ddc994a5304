package io.kopf4j.engines.daemons;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Body;
import io.kopf4j.Daemon;
import io.kopf4j.DaemonStopped;
import io.kopf4j.Lifecycles;
import io.kopf4j.Memo;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import io.kopf4j.actions.Execution;
import io.kopf4j.clients.ObjectPatching;
import io.kopf4j.engines.posting.EventPoster;
import io.kopf4j.intents.HandlerRegistry;
import io.kopf4j.intents.HandlerScanner;
import io.kopf4j.intents.SpawningCause;
import io.kopf4j.logging.ObjectLogger;
import io.kopf4j.reactor.processing.ObjectSpawns;
import io.kopf4j.reactor.processing.Spawning;
import io.kopf4j.runtime.Metrics;
import io.kopf4j.runtime.OperatorThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a parked daemon keeps on its virtual thread's stack, from the thread's start to the user's
 * method: every frame costs its size once per daemon, ten thousand times for ten thousand objects
 * (issue 11). A new layer on this path fails here, to be weighed before it is let in.
 */
class ParkedDaemonStackTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of("status"), true, true, List.of("list", "watch", "patch"));
    private static final Map<String, Object> OBJECT = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "metadata", Map.of("name", "ex", "namespace", "ns", "uid", "u1", "resourceVersion", "1"));

    private final OperatorSettings settings = new OperatorSettings();
    private final EventPoster poster = new EventPoster(settings.posting, new Metrics(null), write -> "ignored");
    private Spawning engine;

    /** A daemon as users write it: an annotated method that waits on its stop flag. */
    public static final class Accompanying {
        final AtomicReference<Thread> parked = new AtomicReference<>();

        @Daemon("kopfexamples")
        public void accompany(DaemonStopped stopped) {
            parked.set(Thread.currentThread());
            while (!stopped.isSet()) {
                stopped.await(Duration.ofSeconds(10));
            }
        }
    }

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stopAll();
        }
        poster.close();
    }

    @Test
    void betweenTheThreadAndTheUsersMethodOnlyTheLayersThatDoSomething() {
        Accompanying daemon = new Accompanying();
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(daemon, registry);
        Execution execution = new Execution(Lifecycles.asap(), Duration.ofSeconds(60), settings.persistence.progressStorage,
                new Metrics(null), null, poster, null);
        ObjectPatching patcher = (resource, body, patch, resultsOf, logger) -> new ObjectPatching.Applied(null, List.of());
        engine = DaemonsEngine.factory(registry, new OperatorThreads("test"), settings, new Metrics(null))
                .create(execution, patcher);
        Body body = new Body(OBJECT);
        ObjectSpawns daemons = engine.object(KOPFEXAMPLES, body, new Memo(), ObjectLogger.local(OBJECT), () -> { });
        daemons.handle(new SpawningCause(KOPFEXAMPLES, OBJECT, body, new Patch(), ObjectLogger.local(OBJECT),
                new Memo(), false), false);

        await().atMost(Duration.ofSeconds(10)).until(() -> daemon.parked.get() != null
                && daemon.parked.get().getState() == Thread.State.TIMED_WAITING);

        assertThat(framesUnder(daemon.parked.get().getStackTrace(), "accompany")).as(
                "the frames under the user's method (the handle's own are hidden), each kept by every parked daemon")
                .containsExactly(
                        "ParameterBinder$BoundMethod.call",     // the parameters, and the method handle's call
                        "RunningHandler.call",                  // the context on its thread (Hierarchies, Events)
                        "Execution$SpawnedCall.invoke",         // the cancellation
                        "Execution.attempt",                    // the outcome: errors, retries, timeouts, log lines
                        "Execution.runSpawned",
                        "Iteration.run",                        // the result and the patch after the call
                        "DaemonLoop.run",                       // the restarts
                        "ObjectDaemons$DaemonThread.run",       // the clean-up and the object's recheck
                        "OperatorThreads$Tagged.run");          // the operator's tag in the logs
    }

    /** The frames under the method of this name down to the thread's own (the JDK's), as Class.method without packages. */
    private static List<String> framesUnder(StackTraceElement[] stack, String method) {
        List<String> frames = new ArrayList<>();
        boolean under = false;
        for (StackTraceElement frame : stack) {
            if (under && frame.getClassName().startsWith("java.")) {   // the thread's own frames
                break;
            }
            if (under) {
                String type = frame.getClassName();
                frames.add(type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethodName());
            }
            under |= frame.getMethodName().equals(method);
        }
        return frames;
    }
}
