package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Handler;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A handler that always fails, or never returns, for one object does not hold up the others. */
@ExtendWith(LocalClusterExtension.class)
class MisbehavingHandlersTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int HEALTHY = 10;

    /** An operator whose handler misbehaves for the object 'misbehaving' and returns "ok" for all others. */
    private static Operator start(OperatorFixture fixture, OperatorSettings settings, Duration backoff, Runnable misbehaviour)
            throws InterruptedException {
        return fixture.start(fixture.operator().settings(settings)
                .handler(Handler.create("kopfexamples").id("create").backoff(backoff).handle(context -> {
                    if (context.name().equals("misbehaving")) {
                        misbehaviour.run();
                    }
                    return "ok";
                })));
    }

    /** Creates the healthy objects and waits until all are handled. */
    private static void assertAllHealthyHandled(KopfExamples examples) {
        for (int i = 0; i < HEALTHY; i++) {
            examples.create("healthy-" + i, Map.of("i", i));
        }
        await().atMost(WAIT).untilAsserted(() -> {
            for (int i = 0; i < HEALTHY; i++) {
                assertThat(examples.status("healthy-" + i)).containsEntry("create", "ok");
            }
        });
    }

    @Test
    void aHandlerFailingForOneObjectDoesNotHoldUpTheOthers(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        AtomicInteger failures = new AtomicInteger();
        try (Operator operator = start(fixture, new OperatorSettings(), Duration.ofMillis(100), () -> {
            failures.incrementAndGet();
            throw new IllegalStateException("always broken");
        })) {
            fixture.examples().create("misbehaving", Map.of("a", 1));
            await().atMost(WAIT).until(() -> failures.get() >= 2);
            assertAllHealthyHandled(fixture.examples());
            // Still retried after the others are done: they did not wait for it to be given up.
            int failuresWhenTheOthersWereDone = failures.get();
            await().atMost(WAIT).until(() -> failures.get() > failuresWhenTheOthersWereDone);
        }
    }

    @Test
    void aHandlerThatNeverReturnsBlocksNeitherOthersNorTheShutdown(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        OperatorSettings settings = new OperatorSettings();
        settings.process.shutdownGracePeriod = Duration.ofSeconds(2);
        AtomicInteger hanging = new AtomicInteger();
        AtomicLong interrupted = new AtomicLong();   // System.nanoTime() of its first interruption; 0 before
        Operator operator = start(fixture, settings, settings.execution.defaultBackoff, () -> {
            hanging.incrementAndGet();
            while (true) {
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException ignoredOnPurpose) {
                    // A handler that ignores interrupts: it must be abandoned, not waited for.
                    interrupted.compareAndSet(0, System.nanoTime());
                }
            }
        });
        fixture.examples().create("misbehaving", Map.of("a", 1));
        await().atMost(WAIT).until(() -> hanging.get() == 1);
        assertAllHealthyHandled(fixture.examples());   // while the hanging handler hangs: it never returns

        long stopping = System.nanoTime();
        CompletableFuture<Void> stop = CompletableFuture.runAsync(operator::stop);
        // Grace period, interrupt, abandon: the stop ends though the handler never does.
        assertThat(stop).succeedsWithin(WAIT);
        await().atMost(WAIT).until(() -> interrupted.get() != 0);
        assertThat(Duration.ofNanos(interrupted.get() - stopping)).as("interrupted only after the grace period")
                .isGreaterThanOrEqualTo(settings.process.shutdownGracePeriod);
    }
}
