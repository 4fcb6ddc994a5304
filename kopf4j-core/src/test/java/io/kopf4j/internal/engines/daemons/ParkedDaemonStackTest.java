package io.kopf4j.internal.engines.daemons;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kopf4j.Body;
import io.kopf4j.Daemon;
import io.kopf4j.DaemonStopped;
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
import io.kopf4j.internal.intents.HandlerScanner;
import io.kopf4j.internal.intents.HandlerSpec;
import io.kopf4j.internal.intents.SpawningCause;
import io.kopf4j.internal.intents.Specs;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.reactor.processing.ObjectSpawns;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a parked daemon keeps on its virtual thread's stack, from the thread's start to the user's
 * method: every frame costs its size once per daemon, ten thousand times for ten thousand objects
 * (issue 11). A new layer on this path fails here, to be weighed before it is let in. And a timer
 * between its runs keeps no thread at all (issue 25), seen in the JVM's thread dump ({@code jcmd PID
 * Thread.dump_to_file}), which lists virtual threads too (unlike {@code Thread.getAllStackTraces}).
 */
class ParkedDaemonStackTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of("status"), true, true, List.of("list", "watch", "patch"));
    private static final Map<String, Object> OBJECT = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "metadata", Map.of("name", "ex", "namespace", "ns", "uid", "u1", "resourceVersion", "1"));

    private static final int TIMERS = 20;

    private final OperatorSettings settings = new OperatorSettings();
    private final Metrics metrics = new Metrics(null);
    private final EventPoster poster = new EventPoster(settings.posting, metrics, write -> "ignored");
    private DaemonsEngine engine;

    @TempDir
    Path dumps;

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
            engine.stopTakingWork();
        }
        poster.close();
    }

    @Test
    void aParkedDaemonsStackHoldsOnlyTheLayersThatDoSomething() {
        Accompanying daemon = new Accompanying();
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(daemon, registry);
        spawnFor(registry, OBJECT);

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
                        "DaemonLoop.run",                       // the restarts, the clean-up and the object's recheck
                        "OperatorThreads$Tagged.run");          // the operator's tag in the logs
        // Above the user's method: the frames a woken daemon freezes again into a chunk of their own,
        // while the chunk they were thawed from keeps their room (docs/performance.md).
        assertThat(framesAbove(daemon.parked.get().getStackTrace(), "accompany"))
                .as("kopf4j's frames between the user's method and LockSupport's park")
                .containsExactly("Stopper.await");
    }

    @Test
    void aDaemonThatDoesNotReadItsBodyNeverHasItParsed() {
        Accompanying daemon = new Accompanying();
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(daemon, registry);
        AtomicInteger reads = new AtomicInteger();
        spawnFor(registry, OBJECT, Body.live(() -> {
            reads.incrementAndGet();   // an operator's live body parses its JSON bytes here, and caches the maps softly
            return OBJECT;
        }));

        await().atMost(Duration.ofSeconds(10)).until(() -> daemon.parked.get() != null
                && daemon.parked.get().getState() == Thread.State.TIMED_WAITING);
        assertThat(reads.get()).as("reads of the live body by the spawn and the call").isZero();
    }

    @Test
    void aTimerWaitingForItsNextRunHasNoThreadAndEndsAtOnceWhenStopped() {
        AtomicInteger runs = new AtomicInteger();
        HandlerRegistry registry = new HandlerRegistry();
        Specs.spec(HandlerKind.TIMER, List.of("kopfexamples"), new Option.Id("tick"), new Option.Interval(Duration.ofHours(1))).register(context -> {
            runs.incrementAndGet();
            return null;
        }, registry);
        for (int i = 0; i < TIMERS; i++) {
            spawnFor(registry, Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
                    "metadata", Map.of("name", "ex" + i, "namespace", "ns", "uid", "u" + i, "resourceVersion", "1")));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == TIMERS);

        // Each timer's run has returned; the thread that ran it ends soon after, and none waits for the next run.
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(timerThreads())
                .as("threads of timers between their runs (the next in an hour)").isEmpty());
        assertThat(metrics.daemonsRunning("timer", "tick").get()).as("timers counted as running").isEqualTo(TIMERS);

        engine.stopTakingWork();
        await().atMost(Duration.ofSeconds(10)).until(() -> metrics.daemonsRunning("timer", "tick").get() == 0);
    }

    /** The engine for these handlers, and the daemons or timers of this object spawned. */
    private void spawnFor(HandlerRegistry registry, Map<String, Object> object) {
        spawnFor(registry, object, new Body(object));
    }

    /** The same with the body that the daemons and timers see (the object's live body in an operator). */
    private void spawnFor(HandlerRegistry registry, Map<String, Object> object, Body body) {
        if (engine == null) {
            Execution execution = new Execution(Lifecycles.asap(), Duration.ofSeconds(60), settings.persistence.progressStorage,
                    metrics, null, poster, null);
            ObjectPatching patcher = (resource, latest, patch, resultsOf, logger) -> new ObjectPatching.Applied(null, List.of());
            engine = new DaemonsEngine(registry, new OperatorThreads("test"), settings, metrics, execution, patcher);
        }
        ObjectSpawns spawns = engine.object(KOPFEXAMPLES, body, new Memo(), ObjectLogger.local(object), () -> { });
        spawns.handle(new SpawningCause(KOPFEXAMPLES, object, body, new Patch(), ObjectLogger.local(object), new Memo(), false),
                false);
    }

    /** The names of the timers' threads alive now, virtual ones included, from the JVM's thread dump. */
    private List<String> timerThreads() throws IOException, InterruptedException {
        Path dump = Files.createTempFile(dumps, "threads", ".json");
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(ProcessHandle.current().pid()), "Thread.dump_to_file", "-overwrite", "-format=json", dump.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(jcmd.waitFor()).as("jcmd's exit code").isZero();
        List<String> names = new ArrayList<>();
        for (JsonNode container : new ObjectMapper().readTree(dump.toFile()).path("threadDump").path("threadContainers")) {
            for (JsonNode thread : container.path("threads")) {
                String name = thread.path("name").asText();
                if (name.startsWith("kopf4j-timer-")) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    /** The frames under the method of this name down to the thread's own (the JDK's), as Class.method without packages. */
    /** kopf4j's frames from the JDK's park (the top) down to the method, which is not included. */
    private static List<String> framesAbove(StackTraceElement[] stack, String method) {
        List<String> frames = new ArrayList<>();
        for (StackTraceElement frame : stack) {
            if (frame.getMethodName().equals(method)) {
                return frames;
            }
            if (frame.getClassName().startsWith("io.kopf4j.")) {
                String type = frame.getClassName();
                frames.add(type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethodName());
            }
        }
        throw new AssertionError("no frame of " + method + " on the stack");
    }

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
