package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.internal.runtime.OutOfMemory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's memory defaults, on the operator's own process: a heap sized by the machine, not a
 * fixed maximum that crashes where more heap would have worked; and when memory does run out, one
 * line that says so and names the setting to raise, and a non-zero exit.
 */
@ExtendWith(LocalClusterExtension.class)
class MemoryTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    /** Keeps what each object asks for ({@code spec.megabytes}) for as long as the operator runs. */
    public static class Hoarding {
        private static final List<byte[]> KEPT = new ArrayList<>();

        @On.Create("kopfexamples")
        public synchronized String hoard(io.kopf4j.Spec spec) {
            int megabytes = ((Number) spec.get("megabytes")).intValue();
            for (int i = 0; i < megabytes; i++) {
                KEPT.add(new byte[1024 * 1024]);
            }
            return "kept " + KEPT.size() + " MB";
        }
    }

    @Test
    void theDefaultHeapHoldsWhatTheOldFixedMaximumCouldNot(LocalCluster cluster, TemporaryNamespace namespace,
                                                          @TempDir Path logs) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        Path log = logs.resolve("operator.log");
        Process operator = fixture.runWithLauncherJvmOptions(log, Map.of(), Hoarding.class);
        try {
            fixture.examples().create("big", Map.of("megabytes", 200));   // over the 128 MB the launcher once fixed
            await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("big"))
                    .containsEntry("hoard", "kept 200 MB"));
            assertThat(operator.isAlive()).as(Files.readString(log)).isTrue();
        } finally {
            operator.destroyForcibly().waitFor();
        }
    }

    @Test
    void runningOutOfMemoryExitsWithOneLineNamingTheSetting(LocalCluster cluster, TemporaryNamespace namespace,
                                                            @TempDir Path logs) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        Path log = logs.resolve("operator.log");
        Process operator = fixture.runWithLauncherJvmOptions(log, Map.of("KOPF4J_JAVA_OPTS", "-Xmx96m"), Hoarding.class);
        try {
            fixture.examples().create("too-big", Map.of("megabytes", 200));
            await().atMost(WAIT).untilAsserted(() -> assertThat(operator.isAlive()).as(Files.readString(log)).isFalse());
            assertThat(operator.exitValue()).isEqualTo(OutOfMemory.EXIT_CODE);
            List<String> lines = Files.readAllLines(log);
            assertThat(lines).filteredOn(line -> line.contains("OutOfMemoryError") || line.contains("Out of memory"))
                    .singleElement().asString()
                    .startsWith("Out of memory (Java heap space) with a maximum heap of ")
                    .contains("-XX:MaxRAMPercentage=").contains("KOPF4J_JAVA_OPTS");
        } finally {
            operator.destroyForcibly().waitFor();
        }
    }
}
