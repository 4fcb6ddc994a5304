package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Activity;
import io.kopf4j.Handler;
import io.kopf4j.Operator;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Settings that change how much runs at once and what is followed, against the real API server. */
@ExtendWith(LocalClusterExtension.class)
class SettingsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int OBJECTS = 4;

    /**
     * Counts how many handlers run at once, and the most that ever did. Each handler waits until as
     * many run as are expected (the limit; all objects without one) or as are left, for up to
     * {@link #MEET}: a busy machine's delivery of the objects' events, which passing does not hang on
     * (a limit that lets fewer run fails once that has passed). Then it holds for {@link #HOLD} more,
     * unless all the handlers still to come run already: with a limit broken, those it should keep
     * out would join meanwhile (the objects are created at once).
     */
    private static final class Concurrency {
        private static final Duration MEET = Duration.ofSeconds(20);
        private static final Duration HOLD = Duration.ofSeconds(2);
        // A lock, not synchronized: handlers run on virtual threads, which must not pin their carriers.
        private final Lock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();
        private final int expected;
        private int running;
        private int finished;
        private int most;

        Concurrency(int expected) {
            this.expected = expected;
        }

        String run() throws InterruptedException {
            lock.lock();
            try {
                running++;
                most = Math.max(most, running);
                changed.signalAll();
                long left = MEET.toNanos();
                while (running < Math.min(expected, OBJECTS - finished) && left > 0) {
                    left = changed.awaitNanos(left);
                }
                left = HOLD.toNanos();
                while (running < OBJECTS - finished && left > 0) {
                    left = changed.awaitNanos(left);
                }
                running--;
                finished++;
                changed.signalAll();
                return "done";
            } finally {
                lock.unlock();
            }
        }

        int most() {
            lock.lock();
            try {
                return most;
            } finally {
                lock.unlock();
            }
        }
    }

    /** The most handlers that ran at once over {@link #OBJECTS} objects created together, {@code expected} the limit. */
    private static int mostAtOnce(LocalCluster cluster, TemporaryNamespace namespace, OperatorSettings settings, int expected)
            throws InterruptedException {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        Concurrency concurrency = new Concurrency(expected);
        try (Operator operator = fixture.start(fixture.operator().settings(settings)
                .handler(Handler.create("kopfexamples").id("create").handle(context -> concurrency.run())))) {
            for (int i = 0; i < OBJECTS; i++) {
                fixture.examples().create("ex-" + i, Map.of());
            }
            for (int i = 0; i < OBJECTS; i++) {
                String name = "ex-" + i;
                await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status(name)).containsEntry("create", "done"));
            }
        }
        return concurrency.most();
    }

    @Test
    void withoutLimitsObjectsAreHandledConcurrently(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        assertThat(mostAtOnce(cluster, namespace, new OperatorSettings(), OBJECTS)).isEqualTo(OBJECTS);
    }

    @Test
    void theWorkerLimitBoundsTheObjectsHandledAtOnce(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorSettings settings = new OperatorSettings();
        settings.queueing.workerLimit = 1;
        assertThat(mostAtOnce(cluster, namespace, settings, 1)).isEqualTo(1);
    }

    @Test
    void maxWorkersBoundsTheSyncHandlersRunningAtOnce(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorSettings settings = new OperatorSettings();
        settings.execution.maxWorkers = 2;
        assertThat(mostAtOnce(cluster, namespace, settings, 2)).isEqualTo(2);
    }

    @Test
    void withScanningDisabledNamespacePatternsServeOnlyTheirExactNames(LocalCluster cluster, TemporaryNamespace exact,
                                                                      TemporaryNamespace matching) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, exact);
        KopfExamples inMatching = new KopfExamples(cluster, matching.name());
        String glob = matching.name().substring(0, matching.name().length() - 3) + "*";
        try (CapturedLogs logs = new CapturedLogs("io.kopf4j.internal");
             Operator operator = fixture.start(fixture.operator().namespaces(glob)
                     .activity(Activity.startup("no-scanning").handle(context -> context.settings().scanning.disabled = true))
                     .handler(Handler.create("kopfexamples").id("create").handle(context -> "done")))) {
            assertThat(logs.contains("Namespaces are not scanned (settings.scanning.disabled)")).isTrue();
            // Watchers of the namespaces found by a scan start while the namespaces are listed, which is
            // over now: the only way to the objects of the matching namespace is closed.
            assertThat(logs.contains("Starting the watch-stream for kopfexamples.v1.kopf.dev in '" + exact.name() + "'.")).isTrue();
            assertThat(logs.contains("Starting the watch-stream for kopfexamples.v1.kopf.dev in '" + matching.name() + "'."))
                    .isFalse();
            inMatching.create("ex", Map.of());
            fixture.examples().create("ex", Map.of());
            await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("ex")).containsEntry("create", "done"));
        }
    }

    /**
     * Kopf's mandatory peering (-P) in a cluster without the peering CRDs: the operator stays paused,
     * with a warning. On a cluster of its own: the shared one gets the CRDs from PeeringTest.
     */
    @Test
    void aMandatoryPeeringWithoutThePeeringCrdsKeepsTheOperatorPaused() throws InterruptedException {
        OperatorSettings settings = new OperatorSettings();
        settings.peering.name = "main";
        settings.peering.mandatory = true;
        try (LocalCluster cluster = LocalCluster.start()) {
            cluster.apply(KopfExamples.CRD);
            try (CapturedLogs logs = new CapturedLogs("io.kopf4j.internal.engines.peering");
                 Operator operator = Operator.builder().kubeconfig(cluster.kubeconfig()).namespaces("default").settings(settings)
                         .handler(Handler.create("kopfexamples").id("create").handle(context -> "done")).build()) {
                operator.start();
                assertThat(logs.contains("The peering is mandatory, but the peering CRDs are not found in the cluster")).isTrue();
                // A listing on this idle cluster takes well under a second: paused, it never starts.
                assertThat(operator.awaitListed(Duration.ofSeconds(5))).isFalse();
            }
        }
    }

    @Test
    void anInvalidSettingFailsTheStartNamingIt(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (Operator operator = fixture.operator()
                .activity(Activity.startup("misconfigure").handle(context -> context.settings().queueing.workerLimit = 0))
                .handler(Handler.create("kopfexamples").id("create").handle(context -> "done")).build()) {
            assertThatThrownBy(operator::start).isInstanceOf(OperatorException.class)
                    .hasMessage("invalid setting settings.queueing.workerLimit: must be at least 1 (or null for no limit), got 0");
        }
    }
}
