package io.kopf4j.engines.daemons;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kopf4j.Body;
import io.kopf4j.Lifecycles;
import io.kopf4j.Memo;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import io.kopf4j.actions.Execution;
import io.kopf4j.clients.ObjectPatching;
import io.kopf4j.engines.posting.EventPoster;
import io.kopf4j.intents.HandlerKind;
import io.kopf4j.intents.HandlerRegistry;
import io.kopf4j.intents.HandlerSpec;
import io.kopf4j.intents.SpawningCause;
import io.kopf4j.logging.ObjectLogger;
import io.kopf4j.reactor.processing.Spawning;
import io.kopf4j.runtime.Metrics;
import io.kopf4j.runtime.OperatorThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A timer between its runs holds no thread (issue 25): a thousand timers would otherwise keep a
 * thousand parked virtual threads with their stacks. Seen in the JVM's thread dump ({@code jcmd PID
 * Thread.dump_to_file}), which lists virtual threads too (unlike {@code Thread.getAllStackTraces}).
 */
class TimerThreadsTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of("status"), true, true, List.of("list", "watch", "patch"));
    private static final int TIMERS = 20;

    private final OperatorSettings settings = new OperatorSettings();
    private final EventPoster poster = new EventPoster(settings.posting, new Metrics(null), write -> "ignored");
    private final Metrics metrics = new Metrics(null);
    private final AtomicInteger runs = new AtomicInteger();
    private Spawning engine;

    @TempDir
    Path dumps;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stopAll();
        }
        poster.close();
    }

    @Test
    void aTimerWaitingForItsNextRunHasNoThreadAndEndsAtOnceWhenStopped() throws IOException {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerSpec.function(HandlerKind.TIMER, "kopfexamples").id("tick").interval(Duration.ofHours(1)).register(context -> {
            runs.incrementAndGet();
            return null;
        }, registry);
        Execution execution = new Execution(Lifecycles.asap(), Duration.ofSeconds(60), settings.persistence.progressStorage,
                metrics, null, poster, null);
        ObjectPatching patcher = (resource, body, patch, resultsOf, logger) -> new ObjectPatching.Applied(null, List.of());
        engine = DaemonsEngine.factory(registry, new OperatorThreads("test"), settings, metrics).create(execution, patcher);
        for (int i = 0; i < TIMERS; i++) {
            Map<String, Object> object = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
                    "metadata", Map.of("name", "ex" + i, "namespace", "ns", "uid", "u" + i, "resourceVersion", "1"));
            Body body = new Body(object);
            engine.object(KOPFEXAMPLES, body, new Memo(), ObjectLogger.local(object), () -> { })
                    .handle(new SpawningCause(KOPFEXAMPLES, object, body, new Patch(), ObjectLogger.local(object), new Memo(),
                            false), false);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == TIMERS);

        // Each timer's run has returned; the thread that ran it ends soon after, and none waits for the next run.
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(timerThreads())
                .as("threads of timers between their runs (the next in an hour)").isEmpty());
        assertThat(metrics.daemonsRunning("timer", "tick").get()).as("timers counted as running").isEqualTo(TIMERS);

        engine.stopAll();
        await().atMost(Duration.ofSeconds(10)).until(() -> metrics.daemonsRunning("timer", "tick").get() == 0);
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
}
