package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.Spec;
import io.kopf4j.Timer;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Timers as Kopf 1.44 runs them (kopf/_core/engines/daemons.py, _timer): never overlapping
 * themselves, on their interval (or its grid, sharp), after quiet periods (idle), with results and
 * retries per run, and holding their object until a run in progress ends.
 */
@ExtendWith(LocalClusterExtension.class)
class TimersTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /**
     * The idle timer's quiet period. Two seconds, not one: each change is made once the operator has
     * handled the one before, and on a busy machine (two test JVMs, each with its API server, on two
     * cores) that round trip can take most of a second.
     */
    private static final double IDLE_SECONDS = 2;
    private static final Duration IDLE = Duration.ofMillis((long) (IDLE_SECONDS * 1000));
    /** How long the idle timer's object keeps changing: three of its idle periods. */
    private static final Duration CHANGING = IDLE.multipliedBy(3);

    /** Runs after {@link #IDLE} without essential changes; the update handler keeps the diff-base current. */
    public static class Idle {
        static final List<Long> RUNS = new CopyOnWriteArrayList<>();
        /** The spec's field at each update handled. */
        static final List<String> UPDATES = new CopyOnWriteArrayList<>();

        @Timer(value = "kopfexamples", idle = IDLE_SECONDS)
        public void quiet() {
            RUNS.add(System.nanoTime());
        }

        @On.Update("kopfexamples")
        public void update(Spec spec) {
            UPDATES.add(String.valueOf(spec.get("field")));
        }
    }

    @Test
    void anIdleTimerRunsOnlyAfterQuietPeriodsOfEssentialChanges(LocalCluster cluster, TemporaryNamespace namespace) {
        Idle.RUNS.clear();
        Idle.UPDATES.clear();
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Idle.class)) {
            examples.create("ex", Map.of("field", 0));
            // Its creation handled first (the diff-base stored): a change before it would be no update.
            await().atMost(WAIT).until(() -> examples.annotations("ex").containsKey("kopf.zalando.org/last-handled-configuration"));
            // Each change once the operator has handled the previous one, for three idle periods.
            List<Long> changeTimes = new ArrayList<>();
            long firstChange = System.nanoTime();
            int changes = 0;
            do {
                String field = String.valueOf(++changes);
                changeTimes.add(System.nanoTime());   // before the PATCH: its event may be handled before its response
                examples.patch("ex", Map.of("spec", Map.of("field", field)));
                await().atMost(WAIT).pollInterval(Duration.ofMillis(10)).until(() -> Idle.UPDATES.contains(field));
            } while (System.nanoTime() - firstChange < CHANGING.toNanos());
            long lastChange = changeTimes.getLast();
            await().atMost(WAIT).until(() -> Idle.RUNS.stream().anyMatch(run -> run > lastChange));
            // Every run came a whole quiet period after the last change made before it (the operator saw
            // each change after the test made it): none while the spec kept changing. A run between two
            // changes is no fault if the machine was slow enough to leave a quiet period between them.
            for (long run : Idle.RUNS) {
                long changedBefore = changeTimes.stream().filter(change -> change < run).mapToLong(Long::longValue).max()
                        .orElseThrow();
                assertThat(Duration.ofNanos(run - changedBefore)).as("from the last change before a run to the run")
                        .isGreaterThanOrEqualTo(IDLE);
            }
            int runs = Idle.RUNS.size();

            // A status change is not essential: no new quiet period, no run.
            examples.patchStatus("ex", Map.of("note", "status only"));
            await().during(IDLE.multipliedBy(2)).atMost(WAIT).until(() -> Idle.RUNS.size() == runs);
            examples.patch("ex", Map.of("spec", Map.of("field", "changed")));
            await().atMost(WAIT).until(() -> Idle.RUNS.size() == runs + 1);
        }
    }

    /** A run that takes longer than the interval: the next one must wait for it. */
    public static class Overlapping {
        static final List<long[]> RUNS = new CopyOnWriteArrayList<>();
        static final AtomicInteger RUNNING = new AtomicInteger();
        static final AtomicInteger MOST = new AtomicInteger();

        static void run() throws InterruptedException {
            long started = System.nanoTime();
            MOST.accumulateAndGet(RUNNING.incrementAndGet(), Math::max);
            try {
                new CountDownLatch(1).await(300, TimeUnit.MILLISECONDS);
            } finally {
                RUNNING.decrementAndGet();
            }
            RUNS.add(new long[] {started, System.nanoTime()});
        }

        @Timer(value = "kopfexamples", interval = 0.1)
        public void slow() throws InterruptedException {
            run();
        }
    }

    /** The same on the interval's grid. */
    public static class OverlappingSharp {
        @Timer(value = "kopfexamples", interval = 0.1, sharp = true)
        public void slowSharp() throws InterruptedException {
            Overlapping.run();
        }
    }

    @Test
    void aTimerNeverOverlapsItselfNorWhenSharp(LocalCluster cluster, TemporaryNamespace namespace) {
        for (Class<?> handlers : List.of(Overlapping.class, OverlappingSharp.class)) {
            Overlapping.RUNS.clear();
            Overlapping.MOST.set(0);
            OperatorFixture fixture = new OperatorFixture(cluster, namespace);
            KopfExamples examples = fixture.examples();
            try (KopfRunner runner = fixture.run(handlers)) {
                examples.create("ex", Map.of("a", 1));
                await().atMost(WAIT).until(() -> Overlapping.RUNS.size() >= 5);
                examples.delete("ex");
                await().atMost(WAIT).until(() -> !examples.exists("ex"));
            }
            assertThat(Overlapping.MOST.get()).as(handlers.getSimpleName()).isEqualTo(1);
            List<long[]> runs = List.copyOf(Overlapping.RUNS);
            for (int i = 1; i < runs.size(); i++) {
                assertThat(runs.get(i)[0]).as("run %d of %s starts after the previous one ended", i, handlers.getSimpleName())
                        .isGreaterThanOrEqualTo(runs.get(i - 1)[1]);
            }
        }
    }

    /** Counts its runs into its result; fails twice after every success. */
    public static class Counting {
        static final AtomicInteger RUNS = new AtomicInteger();
        static final List<Integer> RETRIES = new CopyOnWriteArrayList<>();

        @Timer(value = "kopfexamples", interval = 0.3, backoff = 0.1)
        public Map<String, Object> count(int retry) {
            RETRIES.add(retry);
            if (retry < 2) {
                throw new IllegalStateException("not this time");
            }
            return Map.of("runs", RUNS.incrementAndGet());
        }
    }

    @Test
    void eachRunStoresItsResultAndRetriesStartAgainAfterASuccess(LocalCluster cluster, TemporaryNamespace namespace) {
        Counting.RUNS.set(0);
        Counting.RETRIES.clear();
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Counting.class)) {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).until(() -> examples.status("ex").get("count") instanceof Map<?, ?> result
                    && ((Number) result.get("runs")).intValue() >= 2);
            assertThat(Counting.RETRIES.subList(0, 6)).containsExactly(0, 1, 2, 0, 1, 2);
            assertThat(runner.output()).contains(fixture.about("ex")
                    + "Timer 'count' failed with an exception and will try again in 0.1 seconds: not this time");
        }
    }

    /** A run that blocks until the test lets it go. */
    public static class Blocking {
        static final CountDownLatch RELEASE = new CountDownLatch(1);
        static final AtomicInteger STARTED = new AtomicInteger();

        @Timer(value = "kopfexamples", interval = 60)
        public void blocking() throws InterruptedException {
            STARTED.incrementAndGet();
            RELEASE.await(2, TimeUnit.MINUTES);
        }
    }

    @Test
    void aDeletedObjectIsReleasedAsSoonAsItsTimersRunEnds(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Blocking.class)) {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).until(() -> Blocking.STARTED.get() == 1 && examples.finalizers("ex").contains(KopfExamples.FINALIZER));
            examples.delete("ex");
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> examples.exists("ex"));
            Blocking.RELEASE.countDown();
            await().atMost(WAIT).until(() -> !examples.exists("ex"));
            assertThat(Blocking.STARTED.get()).isEqualTo(1);
        } finally {
            Blocking.RELEASE.countDown();
        }
    }
}
