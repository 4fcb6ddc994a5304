package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Daemon;
import io.kopf4j.DaemonStopped;
import io.kopf4j.DaemonStoppingReason;
import io.kopf4j.Handler;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Patch;
import io.kopf4j.PermanentError;
import io.kopf4j.Spec;
import io.kopf4j.TemporaryError;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Daemons as Kopf 1.44 runs them (kopf/_core/engines/daemons.py): spawned at first sight, holding
 * the finalizer while they run, stopped by the deletion, a filters mismatch or the exit, with
 * Kopf's escalation (signal, cancel, abandon), restarts and log lines.
 */
@ExtendWith(LocalClusterExtension.class)
class DaemonsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** Waits on its flag, as a well-behaved daemon does; records what stopped it. */
    public static class Waiting {
        static final List<String> STARTED = new CopyOnWriteArrayList<>();
        static final List<Set<DaemonStoppingReason>> STOPPED = new CopyOnWriteArrayList<>();

        @Daemon(value = "kopfexamples", cancellationBackoff = 30)
        public void accompany(String name, DaemonStopped stopped) {
            STARTED.add(name);
            while (!stopped.isSet()) {
                stopped.await(Duration.ofSeconds(60));
            }
            STOPPED.add(stopped.reason());
        }
    }

    @Test
    void aDaemonRunsForListedAndCreatedObjectsAndEndsAtOnceWhenDeleted(LocalCluster cluster, TemporaryNamespace namespace) {
        Waiting.STARTED.clear();
        Waiting.STOPPED.clear();
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        examples.create("listed", Map.of("a", 1));
        try (KopfRunner runner = fixture.run(Waiting.class)) {
            examples.create("created", Map.of("a", 1));
            await().atMost(WAIT).until(() -> Waiting.STARTED.containsAll(List.of("listed", "created")));
            await().atMost(WAIT).until(() -> examples.finalizers("created").contains(KopfExamples.FINALIZER)
                    && examples.finalizers("listed").contains(KopfExamples.FINALIZER));
            assertThat(runner.output()).contains(fixture.about("created") + "Adding the finalizer, thus preventing the actual deletion.");

            // Well within its 30 s backoff and the 60 s polling: the exit itself releases the object.
            examples.delete("created");
            await().atMost(Duration.ofSeconds(10)).until(() -> !examples.exists("created"));
            assertThat(Waiting.STOPPED).containsExactly(Set.of(DaemonStoppingReason.RESOURCE_DELETED));
            assertThat(runner.output()).contains(
                    fixture.about("created") + "Daemon 'accompany' has exited on request and will not be retried or restarted.");
            assertThat(Waiting.STARTED).containsExactlyInAnyOrder("listed", "created");
        }
    }

    /** Ignores its flag until the test lets it go. */
    public static class Slow {
        static final CountDownLatch RELEASE = new CountDownLatch(1);
        static final AtomicInteger RUNNING = new AtomicInteger();

        @Daemon("kopfexamples")
        public void linger() throws InterruptedException {
            RUNNING.incrementAndGet();
            try {
                RELEASE.await(2, TimeUnit.MINUTES);
            } finally {
                RUNNING.decrementAndGet();
            }
        }
    }

    @Test
    void aDaemonThatExitsLateHoldsItsObjectUntilItExitsThenReleasesItWithoutPolling(LocalCluster cluster,
                                                                                    TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Slow.class)) {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).until(() -> Slow.RUNNING.get() == 1 && examples.finalizers("ex").contains(KopfExamples.FINALIZER));
            examples.delete("ex");
            await().atMost(WAIT).until(() -> runner.output().contains(
                    fixture.about("ex") + "Daemon 'linger' is still exiting. The next check is in 60 seconds."));
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> examples.exists("ex"));

            Slow.RELEASE.countDown();
            // Less than the 60 s of Kopf's polling: the daemon's exit rechecks the object.
            await().atMost(Duration.ofSeconds(10)).until(() -> !examples.exists("ex"));
            assertThat(runner.output()).contains("Removing the finalizer, thus allowing the actual deletion.");
        } finally {
            Slow.RELEASE.countDown();
        }
    }

    /** Ignores its flag and interruptions: it can only be abandoned. */
    public static class Stubborn {
        static final CountDownLatch RELEASE = new CountDownLatch(1);
        static final List<Set<DaemonStoppingReason>> REASONS = new CopyOnWriteArrayList<>();

        @Daemon(value = "kopfexamples", cancellationBackoff = 0.5, cancellationTimeout = 1)
        public void stubborn(DaemonStopped stopped) {
            while (RELEASE.getCount() > 0) {
                try {
                    RELEASE.await(100, TimeUnit.MILLISECONDS);
                } catch (InterruptedException ignored) {
                    REASONS.add(stopped.reason());
                }
            }
        }
    }

    @Test
    void aDaemonThatIgnoresItsFlagIsSignalledCancelledAndAbandonedAndTheObjectReleased(LocalCluster cluster,
                                                                                        TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Stubborn.class)) {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).until(() -> examples.finalizers("ex").contains(KopfExamples.FINALIZER));
            examples.delete("ex");
            await().atMost(WAIT).until(() -> !examples.exists("ex"));
            String about = fixture.about("ex");
            assertThat(runner.output()).containsSubsequence(
                    about + "Daemon 'stubborn' is signalled to exit gracefully.",
                    about + "Daemon 'stubborn' is signalled to exit by force.",
                    about + "Daemon 'stubborn' did not exit in time. Leaving it orphaned.",
                    about + "Removing the finalizer, thus allowing the actual deletion.");
            assertThat(Stubborn.REASONS).as("interrupted at the cancellation").isNotEmpty();
            assertThat(Stubborn.REASONS.get(0)).contains(DaemonStoppingReason.RESOURCE_DELETED,
                    DaemonStoppingReason.DAEMON_SIGNALLED, DaemonStoppingReason.DAEMON_CANCELLED);
        } finally {
            Stubborn.RELEASE.countDown();
        }
    }

    /** An async daemon: a future that never completes on its own. */
    public static class Async {
        static final List<CompletableFuture<Void>> FUTURES = new CopyOnWriteArrayList<>();

        @Daemon(value = "kopfexamples", cancellationBackoff = 0.5, cancellationTimeout = 5)
        public CompletableFuture<Void> watchAsync() {
            CompletableFuture<Void> future = new CompletableFuture<>();
            FUTURES.add(future);
            return future;
        }
    }

    @Test
    void anAsyncDaemonIsCancelledAfterItsBackoff(LocalCluster cluster, TemporaryNamespace namespace) {
        Async.FUTURES.clear();
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Async.class)) {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).until(() -> Async.FUTURES.size() == 1 && examples.finalizers("ex").contains(KopfExamples.FINALIZER));
            examples.delete("ex");
            await().atMost(WAIT).until(() -> !examples.exists("ex"));
            assertThat(runner.output()).contains(fixture.about("ex") + "Daemon 'watchAsync' is cancelled. Will escalate.");
            assertThat(Async.FUTURES.get(0)).isCancelled();
        }
    }

    /** Runs only for labelled objects; counts its instances, which must never overlap. */
    public static class Labelled {
        static final AtomicInteger RUNNING = new AtomicInteger();
        static final AtomicInteger MOST = new AtomicInteger();
        static final List<Set<DaemonStoppingReason>> STOPPED = new CopyOnWriteArrayList<>();
        static final List<Integer> RETRIES = new CopyOnWriteArrayList<>();

        @Daemon(value = "kopfexamples", labels = "run=yes")
        public void labelled(DaemonStopped stopped, int retry) {
            RETRIES.add(retry);
            MOST.accumulateAndGet(RUNNING.incrementAndGet(), Math::max);
            try {
                stopped.await();
                STOPPED.add(stopped.reason());
            } finally {
                RUNNING.decrementAndGet();
            }
        }
    }

    @Test
    void aFiltersMismatchStopsTheDaemonAndAMatchAgainSpawnsANewOne(LocalCluster cluster, TemporaryNamespace namespace) {
        Labelled.STOPPED.clear();
        Labelled.RETRIES.clear();
        Labelled.MOST.set(0);
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Labelled.class)) {
            examples.create("ex", Map.of("a", 1));
            examples.patch("ex", Map.of("metadata", Map.of("labels", Map.of("run", "yes"))));
            await().atMost(WAIT).until(() -> Labelled.RUNNING.get() == 1 && examples.finalizers("ex").contains(KopfExamples.FINALIZER));

            examples.patch("ex", Map.of("metadata", Map.of("labels", Map.of("run", "no"))));
            await().atMost(WAIT).until(() -> Labelled.STOPPED.size() == 1 && Labelled.RUNNING.get() == 0);
            assertThat(Labelled.STOPPED.get(0)).contains(DaemonStoppingReason.FILTERS_MISMATCH);
            await().atMost(WAIT).until(() -> examples.finalizers("ex").isEmpty());
            assertThat(runner.output()).contains(fixture.about("ex") + "Removing the finalizer, as there are no handlers requiring it.");

            examples.patch("ex", Map.of("metadata", Map.of("labels", Map.of("run", "yes"))));
            await().atMost(WAIT).until(() -> Labelled.RETRIES.size() == 2 && Labelled.RUNNING.get() == 1);
            assertThat(Labelled.RETRIES).containsExactly(0, 0);
            assertThat(Labelled.MOST.get()).as("never two at once").isEqualTo(1);
            examples.delete("ex");
            await().atMost(WAIT).until(() -> !examples.exists("ex"));
        }
    }

    /** Fails three times with an arbitrary error, then waits; records the retries it saw. */
    public static class Failing {
        static final List<Integer> RETRIES = new CopyOnWriteArrayList<>();

        @Daemon(value = "kopfexamples", backoff = 0.2)
        public void flaky(int retry, DaemonStopped stopped) {
            RETRIES.add(retry);
            if (retry < 3) {
                throw new IllegalStateException("boom");
            }
            stopped.await();
        }
    }

    @Test
    void aDaemonFailingWithArbitraryErrorsIsRestartedAfterItsBackoffCountingRetries(LocalCluster cluster,
                                                                                    TemporaryNamespace namespace) {
        Failing.RETRIES.clear();
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Failing.class)) {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).until(() -> Failing.RETRIES.size() == 4);
            assertThat(Failing.RETRIES).containsExactly(0, 1, 2, 3);
            assertThat(KopfExamples.count(runner.output(),
                    "Daemon 'flaky' failed with an exception and will try again in 0.2 seconds: boom")).isEqualTo(3);
            assertThat(examples.annotations("ex")).as("nothing of a daemon's progress is stored")
                    .doesNotContainKey("kopf.zalando.org/flaky");
            examples.delete("ex");
            await().atMost(WAIT).until(() -> !examples.exists("ex"));
        }
    }

    /** Temporary errors with a short delay (the backoff is long), then a message per attempt, then a permanent error. */
    public static class Ending {
        static final AtomicInteger CALLS = new AtomicInteger();

        @Daemon(value = "kopfexamples", backoff = 60)
        public void ending(int retry, Patch patch) {
            CALLS.incrementAndGet();
            patch.status().put("message", "Failed " + (retry + 1) + " times.");
            if (retry < 2) {
                throw new TemporaryError("not yet", Duration.ofMillis(200));
            }
            throw new PermanentError("enough");
        }
    }

    @Test
    void temporaryErrorsRestartAfterTheirDelayAndAPermanentOneEndsTheDaemonForGood(LocalCluster cluster,
                                                                                  TemporaryNamespace namespace) {
        Ending.CALLS.set(0);
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Ending.class)) {
            examples.create("ex", Map.of("a", 1));
            String about = fixture.about("ex");
            await().atMost(WAIT).until(() -> runner.output().contains(
                    about + "Daemon 'ending' has exited on its own and will not be retried or restarted."));
            assertThat(runner.output()).contains(about + "Daemon 'ending' failed temporarily: not yet",
                    about + "Daemon 'ending' failed permanently: enough");
            assertThat(Ending.CALLS.get()).isEqualTo(3);
            await().atMost(WAIT).until(() -> "Failed 3 times.".equals(examples.status("ex").get("message")));
            // Ended for good: its finalizer goes at the next event, and no change brings it back.
            examples.patch("ex", Map.of("spec", Map.of("a", 2)));
            await().atMost(WAIT).until(() -> examples.finalizers("ex").isEmpty());
            assertThat(runner.output()).contains(about + "Removing the finalizer, as there are no handlers requiring it.");
            examples.patch("ex", Map.of("spec", Map.of("a", 3)));
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> Ending.CALLS.get() == 3);
        }
    }

    /** Reads the live spec in its loop, as Kopf's docs tell daemons to. */
    public static class Live {
        static final List<Object> SEEN = new CopyOnWriteArrayList<>();

        @Daemon("kopfexamples")
        public void reader(Spec spec, DaemonStopped stopped) {
            while (!stopped.isSet()) {
                Object field = spec.get("field");
                if (SEEN.isEmpty() || !SEEN.get(SEEN.size() - 1).equals(field)) {
                    SEEN.add(field);
                }
                stopped.await(Duration.ofMillis(50));
            }
        }
    }

    @Test
    void aDaemonsSpecIsALiveViewOfTheLatestState(LocalCluster cluster, TemporaryNamespace namespace) {
        Live.SEEN.clear();
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Live.class)) {
            examples.create("ex", Map.of("field", "one"));
            await().atMost(WAIT).until(() -> Live.SEEN.contains("one"));
            examples.patch("ex", Map.of("spec", Map.of("field", "two")));
            await().atMost(WAIT).until(() -> Live.SEEN.contains("two"));
            assertThat(Live.SEEN).containsExactly("one", "two");
        }
    }

    @Test
    void daemonsStopWhenTheOperatorStopsAndOneIgnoringItsFlagIsLeftOrphaned(LocalCluster cluster,
                                                                            TemporaryNamespace namespace) throws Exception {
        List<Set<DaemonStoppingReason>> reasons = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicLong deafInterrupted = new AtomicLong();   // System.nanoTime() of its interruption; 0 before
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        CapturedLogs logs = new CapturedLogs("kopf.objects");
        OperatorSettings settings = new OperatorSettings();
        settings.process.shutdownGracePeriod = Duration.ofSeconds(3);
        Operator operator = fixture.start(fixture.operator().settings(settings)
                .handler(Handler.daemon("kopfexamples").id("polite").handle(context -> {
                    running.incrementAndGet();
                    context.stopped().await();
                    reasons.add(context.stopped().reason());
                    return null;
                }))
                .handler(Handler.daemon("kopfexamples").id("deaf").handle(context -> {
                    running.incrementAndGet();
                    try {
                        release.await(1, TimeUnit.MINUTES);   // deaf to its stop flag; never released before the stop ends
                    } catch (InterruptedException e) {
                        deafInterrupted.set(System.nanoTime());
                    }
                    return null;
                })));
        try {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).until(() -> running.get() == 2);
            long stopping = System.nanoTime();
            operator.close();
            // Not waited for until it ends by itself (its minute is longer than WAIT): interrupted, and only
            // after the grace period.
            await().atMost(WAIT).until(() -> deafInterrupted.get() != 0);
            assertThat(Duration.ofNanos(deafInterrupted.get() - stopping)).as("interrupted after the grace period")
                    .isGreaterThanOrEqualTo(settings.process.shutdownGracePeriod);
            assertThat(reasons).containsExactly(Set.of(DaemonStoppingReason.OPERATOR_EXITING));
            assertThat(logs.contains("Daemon 'deaf' did not exit in time. Leaving it orphaned.")).isTrue();
            assertThat(logs.contains("Daemon 'polite' has exited on request and will not be retried or restarted.")).isTrue();
            assertThat(logs.contains("Daemon 'polite' did not exit in time")).as("it ended within its instant exit").isFalse();
        } finally {
            release.countDown();
            logs.close();
        }
    }

    @Test
    void aBlockingDaemonTakesNoHandlerSlotAndLeavesTheProbesHealthy(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<Object> updated = new CopyOnWriteArrayList<>();
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        OperatorSettings settings = new OperatorSettings();
        settings.execution.maxWorkers = 1;   // a daemon holding the one slot would starve the update handler
        settings.probes.progressTimeout = Duration.ofSeconds(2);
        HttpClient http = HttpClient.newHttpClient();
        try (Operator operator = fixture.start(fixture.operator().settings(settings).healthProbeAddress("127.0.0.1:0")
                .handler(Handler.daemon("kopfexamples").id("blocking").handle(context -> release.await(2, TimeUnit.MINUTES)))
                .handler(Handler.update("kopfexamples").id("update").handle(context -> updated.add(context.spec().get("a")))))) {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).until(() -> examples.finalizers("ex").contains(KopfExamples.FINALIZER));
            examples.patch("ex", Map.of("spec", Map.of("a", 2)));
            await().atMost(WAIT).until(() -> updated.contains(2L) || updated.contains(2));
            URI base = URI.create("http://127.0.0.1:" + operator.healthProbeAddress().getPort());
            for (String path : List.of("/healthz", "/readyz")) {
                HttpResponse<String> reply = http.send(HttpRequest.newBuilder(base.resolve(path)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(reply.statusCode()).as(path).isEqualTo(200);
            }
        } finally {
            release.countDown();
        }
    }

    @Test
    void anInitialDelayPostponesTheFirstCallAndTheGaugeCountsRunningDaemons(LocalCluster cluster,
                                                                           TemporaryNamespace namespace) throws Exception {
        List<Long> firstCalls = new CopyOnWriteArrayList<>();
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Operator operator = fixture.start(fixture.operator().meterRegistry(registry)
                .handler(Handler.daemon("kopfexamples").id("late").initialDelay(Duration.ofSeconds(1)).handle(context -> {
                    firstCalls.add(System.nanoTime());
                    context.stopped().await();
                    return null;
                })))) {
            long created = System.nanoTime();
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).until(() -> firstCalls.size() == 1);
            assertThat(Duration.ofNanos(firstCalls.get(0) - created)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            assertThat(registry.get("kopf4j.daemons.running").tag("kind", "daemon").tag("handler", "late").gauge().value())
                    .isEqualTo(1.0);
            examples.delete("ex");
            await().atMost(WAIT).until(() -> !examples.exists("ex"));
            await().atMost(WAIT).until(() -> registry.get("kopf4j.daemons.running").tag("handler", "late").gauge().value() == 0.0);
        }
    }
}
