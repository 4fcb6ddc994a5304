package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

/** SIGTERM to the real command in its own JVM: a graceful stop, and Kopf's last resort when it hangs. */
@ExtendWith(LocalClusterExtension.class)
class ShutdownTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String HANG = "KOPF4J_TEST_HANG_IN_CLEANUP";

    public static class Handlers {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.process.ultimateExitingTimeout = Duration.ofSeconds(2);
        }

        @On.Create("kopfexamples")
        public String slow(Logger logger) throws InterruptedException {
            logger.info("Slow handler started");
            Thread.sleep(1500);
            return "done";
        }

        @On.Cleanup
        public void cleanup(Logger logger) throws InterruptedException {
            logger.info("Cleaning up");
            if ("1".equals(System.getenv(HANG))) {
                Thread.sleep(Long.MAX_VALUE);
            }
        }
    }

    @TempDir
    Path dir;

    @Test
    void aHandlerInFlightFinishesAndItsOutcomeIsStoredBeforeTheExit(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        Path log = dir.resolve("operator.log");
        Process process = fixture.runInOwnJvm(log, Map.of(HANG, "0"), Handlers.class);
        try {
            examples.create("ex", Map.of());
            await().atMost(WAIT).until(() -> Files.readString(log).contains("Slow handler started"));
            process.destroy();   // SIGTERM
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).isZero();
        } finally {
            process.destroyForcibly();
        }
        assertThat(Files.readString(log)).contains("Signal SIGTERM is received. Operator is stopping.",
                "Handler 'slow' succeeded.", "Activity 'cleanup' succeeded.");
        assertThat(examples.status("ex")).containsEntry("slow", "done");
    }

    @Test
    void aShutdownThatHangsEndsAfterTheUltimateExitingTimeout(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        Path log = dir.resolve("operator.log");
        Process process = new OperatorFixture(cluster, namespace).runInOwnJvm(log, Map.of(HANG, "1"), Handlers.class);
        long signalled = System.nanoTime();
        try {
            process.destroy();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).as("Kopf's ultimate exit").isEqualTo(3);
        } finally {
            process.destroyForcibly();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - signalled)).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(15));
        assertThat(Files.readString(log)).contains("Cleaning up", "The operator did not stop within 2.0 s after SIGTERM; exiting.");
    }
}
