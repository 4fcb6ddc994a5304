package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.TemporaryError;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Delete handlers hold the object with Kopf's finalizer; optional ones do not. */
@ExtendWith(LocalClusterExtension.class)
class DeletionTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    public static class Required {
        @On.Delete("kopfexamples")
        public void delete(int retry) {
            if (retry == 0) {
                throw new TemporaryError("still cleaning up", Duration.ofSeconds(1));
            }
        }
    }

    public static class Optional {
        @On.Delete(value = "kopfexamples", optional = true)
        public void delete() {
        }
    }

    @Test
    void deletionWaitsForTheHandlerThenReleasesTheFinalizer(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Required.class)) {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).until(() -> examples.finalizers("ex").contains(KopfExamples.FINALIZER));
            assertThat(runner.output()).contains("Adding the finalizer, thus preventing the actual deletion.");

            examples.delete("ex");
            await().atMost(WAIT).until(() -> runner.output().contains("Handler 'delete' failed temporarily: still cleaning up"));
            assertThat(examples.exists("ex")).as("held by the finalizer while the handler is not done").isTrue();
            await().atMost(WAIT).until(() -> !examples.exists("ex"));
            assertThat(runner.output()).contains("Deletion is processed: 1 succeeded; 0 failed.",
                    "Removing the finalizer, thus allowing the actual deletion.");
        }
    }

    @Test
    void optionalDeleteHandlersAddNoFinalizer(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Optional.class)) {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).until(() -> runner.output().contains("Handling cycle is finished"));
            assertThat(examples.finalizers("ex")).isEmpty();
            examples.delete("ex");
            await().atMost(WAIT).until(() -> !examples.exists("ex"));
        }
    }
}
