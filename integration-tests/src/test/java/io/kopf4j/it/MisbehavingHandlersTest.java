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

    private Duration handleHealthyObjects(LocalCluster cluster, String namespace, String prefix, boolean withBroken,
                                          AtomicInteger brokenCalls) {
        KopfExamples examples = new KopfExamples(cluster, namespace);
        try (Operator operator = Operator.builder()
                .handler(Handler.create("kopfexamples").id("create").backoff(Duration.ofMillis(100)).handle(context -> {
                    if (context.name().startsWith("broken")) {
                        brokenCalls.incrementAndGet();
                        throw new IllegalStateException("always broken");
                    }
                    return "ok";
                }))
                .namespaces(namespace).kubeconfig(cluster.kubeconfig()).build()) {
            operator.start();
            if (withBroken) {
                examples.create("broken", Map.of("a", 1));
                await().atMost(WAIT).until(() -> brokenCalls.get() >= 2);
            }
            long started = System.nanoTime();
            for (int i = 0; i < HEALTHY; i++) {
                examples.create(prefix + i, Map.of("i", i));
            }
            await().atMost(WAIT).untilAsserted(() -> {
                for (int i = 0; i < HEALTHY; i++) {
                    assertThat(examples.status(prefix + i)).containsEntry("create", "ok");
                }
            });
            return Duration.ofNanos(System.nanoTime() - started);
        }
    }

    @Test
    void aHandlerFailingForOneObjectDoesNotSlowTheOthers(LocalCluster cluster, TemporaryNamespace clean,
                                                         TemporaryNamespace withBroken) {
        AtomicInteger brokenCalls = new AtomicInteger();
        Duration without = handleHealthyObjects(cluster, clean.name(), "healthy-", false, brokenCalls);
        Duration with = handleHealthyObjects(cluster, withBroken.name(), "healthy-", true, brokenCalls);
        System.out.printf("%d healthy objects handled in %d ms without and %d ms with a broken one%n",
                HEALTHY, without.toMillis(), with.toMillis());
        assertThat(brokenCalls.get()).as("the broken object keeps being retried").isGreaterThanOrEqualTo(2);
        assertThat(with).isLessThan(without.multipliedBy(3).plusSeconds(5));
    }

    @Test
    void aHandlerThatNeverReturnsBlocksNeitherOthersNorTheShutdown(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        OperatorSettings settings = new OperatorSettings();
        settings.process.shutdownGracePeriod = Duration.ofSeconds(2);
        AtomicInteger stuck = new AtomicInteger();
        Operator operator = Operator.builder()
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
                }))
                .namespaces(namespace.name()).kubeconfig(cluster.kubeconfig()).settings(settings).build();
        operator.start();
        examples.create("stuck", Map.of("a", 1));
        await().atMost(WAIT).until(() -> stuck.get() == 1);
        examples.create("fine", Map.of("a", 1));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("fine")).containsEntry("create", "ok"));

        long started = System.nanoTime();
        operator.stop();
        assertThat(operator.awaitTermination(Duration.ofSeconds(1))).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("grace period, interrupt, abandon")
                .isLessThan(Duration.ofSeconds(10));
    }
}
