package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.internal.structs.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Kopf's log formats, printed by the command line (in a JVM of its own: logging is per process). */
@ExtendWith(LocalClusterExtension.class)
class LogFormatsTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    public static class Handlers {
        @On.Create("kopfexamples")
        public void create() {
        }
    }

    @TempDir
    Path dir;

    /** Runs the operator with the options until it handled one object; returns the line about it. */
    private String handlerLine(OperatorFixture fixture, String name, String... options) throws Exception {
        Path log = dir.resolve(name + ".log");
        Process operator = fixture.runInOwnJvm(log, Map.of(), Handlers.class, options);
        try {
            fixture.examples().create(name, Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(Files.readString(log)).contains("Handler 'create' succeeded."));
            return Files.readAllLines(log).stream().filter(line -> line.contains("Handler 'create' succeeded.")).findFirst()
                    .orElseThrow();
        } finally {
            operator.destroy();
            operator.waitFor(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void fullPlainAndJsonAsKopfPrintsThem(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        String ns = namespace.name();
        assertThat(handlerLine(fixture, "full")).matches(
                "\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}] kopf\\.objects +\\[INFO +] \\[" + ns
                        + "/full] Handler 'create' succeeded\\.");
        assertThat(handlerLine(fixture, "plain", "--log-format=plain"))
                .isEqualTo("[" + ns + "/plain] Handler 'create' succeeded.");
        assertThat(handlerLine(fixture, "bare", "--log-format=plain", "--no-log-prefix"))
                .isEqualTo("Handler 'create' succeeded.");
        assertThat(handlerLine(fixture, "kinded", "--log-format=plain", "--log-prefix-kind"))
                .isEqualTo("[" + ns + "/KopfExample/kinded] Handler 'create' succeeded.");

        Map<String, Object> json = Json.parseMap(handlerLine(fixture, "json", "--log-format=json", "--log-refkey=k8s"));
        assertThat(json).containsEntry("message", "Handler 'create' succeeded.").containsEntry("severity", "info")
                .containsKeys("timestamp");
        assertThat(json.get("k8s")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("apiVersion", "kopf.dev/v1").containsEntry("kind", "KopfExample")
                .containsEntry("name", "json").containsEntry("namespace", ns).containsKey("uid");
    }
}
