package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Handler;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A handler that always fails, or never returns, for one object does not hold up the others. */
@ExtendWith(LocalClusterExtension.class)
class MisbehavingHandlersTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int HEALTHY = 10;

    private static void assertAllHealthyHandled(KopfExamples examples) {
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
        KopfExamples examples = fixture.examples();
        AtomicInteger brokenCalls = new AtomicInteger();
        try (Operator operator = fixture.start(fixture.operator()
                .handler(Handler.create("kopfexamples").id("create").backoff(Duration.ofMillis(100)).handle(context -> {
                    if (context.name().equals("broken")) {
                        brokenCalls.incrementAndGet();
                        throw new IllegalStateException("always broken");
                    }
                    return "ok";
                })))) {
            examples.create("broken", Map.of("a", 1));
            await().atMost(WAIT).until(() -> brokenCalls.get() >= 2);
            for (int i = 0; i < HEALTHY; i++) {
                examples.create("healthy-" + i, Map.of("i", i));
            }
            assertAllHealthyHandled(examples);
            // Still retried after the others are done: they did not wait for it to be given up.
            int callsWhenTheOthersWereDone = brokenCalls.get();
            await().atMost(WAIT).until(() -> brokenCalls.get() > callsWhenTheOthersWereDone);
        }
    }

    @Test
    void aHandlerThatNeverReturnsBlocksNeitherOthersNorTheShutdown(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        OperatorSettings settings = new OperatorSettings();
        settings.process.shutdownGracePeriod = Duration.ofSeconds(2);
        AtomicInteger stuck = new AtomicInteger();
        Operator operator = fixture.start(fixture.operator().settings(settings)
                .handler(Handler.create("kopfexamples").id("create").handle(context -> {
                    if (context.name().equals("stuck")) {
                        stuck.incrementAndGet();
                        while (true) {
                            try {
                                Thread.sleep(Long.MAX_VALUE);
                            } catch (InterruptedException ignoredOnPurpose) {
                                // A handler that ignores interrupts: it must be abandoned, not waited for.
                            }
                        }
                    }
                    return "ok";
                })));
        examples.create("stuck", Map.of("a", 1));
        await().atMost(WAIT).until(() -> stuck.get() == 1);
        for (int i = 0; i < HEALTHY; i++) {
            examples.create("healthy-" + i, Map.of("i", i));
        }
        assertAllHealthyHandled(examples);   // while the stuck handler hangs: it never returns

        long started = System.nanoTime();
        operator.stop();
        assertThat(operator.awaitTermination(Duration.ofSeconds(1))).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("grace period, interrupt, abandon")
                .isLessThan(Duration.ofSeconds(10));
    }
}
