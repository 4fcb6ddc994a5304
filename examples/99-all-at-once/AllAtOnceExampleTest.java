import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs examples/99-all-at-once as Kopf's E2E test runs its example 99, against a real API server. */
@ExtendWith(LocalClusterExtension.class)
class AllAtOnceExampleTest {
    @Test
    void everyHandlerSucceedsOnceAndTheRetriedOnesAfterTheirFailures(LocalCluster cluster, TemporaryNamespace namespace) {
        ExampleRun run = ExampleRun.start(cluster, namespace, "99-all-at-once/AllAtOnceExample.java");
        try {
            run.createObject();
            run.awaitOutput("Creation is processed:");
            assertThat(run.output()).contains(run.prefix() + "Handler 'create_2' failed with an exception and will try again in 1 seconds: Whoops!");
            run.awaitOutput("This pod is special for us.");
            run.deleteObject();
            run.awaitOutput("Deleted, really deleted");
        } finally {
            run.close();
        }
        assertThat(run.output()).contains("Starting in 1s...", "Starting retried...", "Cleaning up in 3s...");
        run.assertSuccessCounts(Map.of("create_1", 1, "create_2", 1, "create_pod", 1, "delete", 1,
                "startup_fn_simple", 1, "startup_fn_retried", 1, "cleanup_fn", 1));
        run.assertFailureCounts(Map.of());
    }
}
