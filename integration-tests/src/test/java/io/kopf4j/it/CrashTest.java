package io.kopf4j.it;

import static io.kopf4j.it.KopfExamples.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

/** The operator is killed (SIGKILL) in the middle of a creation; the next one continues where it stopped. */
@ExtendWith(LocalClusterExtension.class)
class CrashTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String BLOCK = "KOPF4J_TEST_BLOCK";

    public static class Handlers {
        @On.Create("kopfexamples")
        public String first() {
            return "first done";
        }

        @On.Create(value = "kopfexamples", backoff = 0.2)
        public String second(int retry, Logger logger) throws InterruptedException {
            if (retry < 2) {
                throw new IllegalStateException("failing at retry " + retry);
            }
            if ("1".equals(System.getenv(BLOCK))) {
                logger.info("Second is stuck at retry {}", retry);
                Thread.sleep(Long.MAX_VALUE);   // the process is killed while here
            }
            return "second done at retry " + retry;
        }

        @On.Create("kopfexamples")
        public String third() {
            return "third done";
        }
    }

    @TempDir
    Path dir;

    @Test
    void finishedHandlersAreNotRerunAndRetriesAreKept(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        Path log = dir.resolve("operator.log");
        Process operator = fixture.runInOwnJvm(log, Map.of(BLOCK, "1"), Handlers.class, "-v");
        try {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).until(() -> Files.readString(log).contains("Second is stuck at retry 2"));
        } finally {
            operator.destroyForcibly();   // SIGKILL: no shutdown hooks, no graceful stop
            operator.waitFor(10, TimeUnit.SECONDS);
        }
        String killed = Files.readString(log);
        assertThat(killed).contains("Handler 'first' succeeded.", "Handler 'third' succeeded.")
                .doesNotContain("Handler 'second' succeeded.");

        try (KopfRunner runner = fixture.run(Handlers.class)) {
            await().atMost(WAIT).until(() -> runner.output().contains("Creation is processed: 3 succeeded; 0 failed."));
            assertThat(count(runner.output(), "Handler 'first'")).isZero();
            assertThat(count(runner.output(), "Handler 'third'")).isZero();
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex"))
                    .containsEntry("first", "first done").containsEntry("third", "third done")
                    .containsEntry("second", "second done at retry 2"));
        }
    }
}
