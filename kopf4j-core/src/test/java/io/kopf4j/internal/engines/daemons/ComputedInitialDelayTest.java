package io.kopf4j.internal.engines.daemons;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Daemon;
import io.kopf4j.DaemonStopped;
import io.kopf4j.DelayFn;
import io.kopf4j.HandlerContext;
import io.kopf4j.Timer;
import io.kopf4j.internal.clients.ObjectPatching;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerScanner;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code initialDelayFn} (Kopf's callable {@code initial_delay}, its tests
 * {@code test_daemon_initial_delay_callable_obeyed} and {@code test_timer_initial_delay_callable_obeyed}):
 * asked once per object with that object's context, and each object's daemon or timer waits its own
 * delay before the first call. Without Kopf's fake loop time, the waits are measured: a first call
 * can never come earlier than the delay asked for.
 */
class ComputedInitialDelayTest {
    private static final ObjectPatching NO_PATCHES = (resource, body, patch, resultsOf, logger) ->
            new ObjectPatching.Applied(null, List.of());

    /** Kopf's {@code get_delay}: the object's {@code spec.delayMs}; each answer recorded by object name. */
    public static class DelayFromSpec implements DelayFn {
        static final Map<String, Duration> ASKED = new ConcurrentHashMap<>();

        @Override
        public Duration apply(HandlerContext context) {
            Duration delay = Duration.ofMillis(((Number) context.spec().get("delayMs")).longValue());
            ASKED.merge(context.name(), delay, (first, again) -> {
                throw new AssertionError("asked twice for " + context.name());
            });
            return delay;
        }
    }

    /** When each object's first call came (nanoTime), by object name. */
    private static final Map<String, Long> FIRST_CALLS = new ConcurrentHashMap<>();

    public static class Daemons {
        @Daemon(value = "kopfexamples", initialDelayFn = DelayFromSpec.class)
        public void monitor(String name, DaemonStopped stopped) {
            FIRST_CALLS.putIfAbsent(name, System.nanoTime());
            stopped.await();
        }
    }

    public static class Timers {
        @Timer(value = "kopfexamples", interval = 3600, initialDelayFn = DelayFromSpec.class)
        public void tick(String name) {
            FIRST_CALLS.putIfAbsent(name, System.nanoTime());
        }
    }

    @BeforeEach
    void forget() {
        DelayFromSpec.ASKED.clear();
        FIRST_CALLS.clear();
    }

    @Test
    void eachObjectsDaemonWaitsTheDelayComputedForThatObject() {
        spawnTwoAndCheckTheirDelays(Daemons.class);
    }

    @Test
    void eachObjectsTimerWaitsTheDelayComputedForThatObject() {
        spawnTwoAndCheckTheirDelays(Timers.class);
    }

    private static void spawnTwoAndCheckTheirDelays(Class<?> handlers) {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(handlers, registry);
        Spawner spawner = new Spawner(registry, NO_PATCHES);
        try {
            long spawned = System.nanoTime();
            spawner.spawn(Spawner.object("soon", Map.of("delayMs", 100)));
            spawner.spawn(Spawner.object("later", Map.of("delayMs", 1500)));

            await().atMost(Duration.ofSeconds(30)).until(() -> FIRST_CALLS.size() == 2);
            assertThat(DelayFromSpec.ASKED).as("asked once per object, with that object's context")
                    .containsOnly(Map.entry("soon", Duration.ofMillis(100)), Map.entry("later", Duration.ofMillis(1500)));
            assertThat(Duration.ofNanos(FIRST_CALLS.get("soon") - spawned)).isGreaterThanOrEqualTo(Duration.ofMillis(100));
            assertThat(Duration.ofNanos(FIRST_CALLS.get("later") - spawned))
                    .as("not the other object's delay").isGreaterThanOrEqualTo(Duration.ofMillis(1500));
        } finally {
            spawner.engine().stopTakingWork();
        }
    }
}
