package io.kopf4j.it;

import static io.kopf4j.it.KopfExamples.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Restarts: resume handlers run once per process; objects created meanwhile are creations. */
@ExtendWith(LocalClusterExtension.class)
class ResumingTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    public static class Handlers {
        @On.Create("kopfexamples")
        public String create() {
            return "created";
        }

        @On.Resume("kopfexamples")
        public String resume() {
            return "resumed";
        }
    }

    @Test
    void resumesAfterARestartOnceAndHandlesObjectsCreatedWhileDown(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        String earlier = fixture.about("earlier");
        String meanwhile = fixture.about("meanwhile");
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            examples.create("earlier", Map.of("a", 1));
            await().atMost(WAIT).until(() -> runner.output().contains(earlier + "Creation is processed: 1 succeeded; 0 failed."));
            assertThat(runner.output()).doesNotContain("Handler 'resume'");
        }

        examples.create("meanwhile", Map.of("a", 1));

        try (KopfRunner runner = fixture.run(Handlers.class)) {
            await().atMost(WAIT).until(() -> runner.output().contains(earlier + "Resuming is processed: 1 succeeded; 0 failed.")
                    && runner.output().contains(meanwhile + "Creation is processed: 1 succeeded; 0 failed."));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(examples.status("earlier")).containsEntry("create", "created").containsEntry("resume", "resumed");
                assertThat(examples.status("meanwhile")).as("creation never mixes with resuming")
                        .containsEntry("create", "created").doesNotContainKey("resume");
            });
            assertThat(runner.output()).doesNotContain(earlier + "Handler 'create'");

            examples.patch("earlier", Map.of("spec", Map.of("a", 2)));
            await().atMost(WAIT).until(() -> examples.annotations("earlier")
                    .get("kopf.zalando.org/last-handled-configuration").contains("\"a\":2"));
            assertThat(count(runner.output(), earlier + "Handler 'resume' succeeded.")).as("resumed once per process").isEqualTo(1);
        }
    }
}
