package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.testing.KopfHarness;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.KopfTest;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Async handlers are awaited; different objects are handled at the same time. */
@KopfTest(scope = KopfTest.Scope.METHOD, crds = "../examples/crd.yaml", handlers = ExecutionTest.Handlers.class)
class ExecutionTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int OBJECTS = 5;
    static final CountDownLatch ALL_RUNNING = new CountDownLatch(OBJECTS);

    public static class Handlers {
        /** Completes only if all objects' handlers run at once: the latch needs every one of them. */
        @On.Create("kopfexamples")
        public String together() throws InterruptedException {
            ALL_RUNNING.countDown();
            return ALL_RUNNING.await(20, TimeUnit.SECONDS) ? "together" : "alone";
        }

        @On.Create("kopfexamples")
        public CompletionStage<Map<String, Object>> later(String name) {
            return CompletableFuture.supplyAsync(() -> Map.of("async", name));
        }
    }

    @Test
    void objectsAreHandledConcurrentlyAndAsyncResultsAwaited(KopfHarness kopf, KopfRunner runner) {
        OperatorFixture fixture = new OperatorFixture(kopf);
        KopfExamples examples = fixture.examples();
        for (int i = 0; i < OBJECTS; i++) {
            examples.create("ex-" + i, Map.of("i", i));
        }
        await().atMost(WAIT).untilAsserted(() -> {
            for (int i = 0; i < OBJECTS; i++) {
                assertThat(examples.status("ex-" + i)).containsEntry("together", "together")
                        .containsEntry("later", Map.of("async", "ex-" + i));
            }
        });
        assertThat(runner.output()).doesNotContain("Handler 'together' failed", "Handler 'later' failed");
    }
}
