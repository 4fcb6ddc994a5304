import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs examples/07-subhandlers as Kopf's E2E test runs its example 07, against a real API server. */
@ExtendWith(LocalClusterExtension.class)
class SubhandlersExampleTest {
    @Test
    void eachItemIsHandledOnceByItsOwnSubhandler(LocalCluster cluster, TemporaryNamespace namespace) {
        try (ExampleRun run = ExampleRun.start(cluster, namespace, "07-subhandlers/SubhandlersExample.java")
                .leavesUnused("patch kopf.dev/kopfexamples/status in NAMESPACE",
                        "its sub-handlers, functions that may return results, return none here")) {
            run.createObject();
            run.awaitOutput("Creation is processed:");
            run.deleteObject();

            assertThat(run.output()).contains(run.prefix() + "=== Handling creation for item1. ===",
                    run.prefix() + "=== Handling creation for item2. ===");
            run.assertSuccessCounts(Map.of("create_fn", 1, "create_fn/item1", 1, "create_fn/item2", 1));
            run.assertEverySuccessOnceAndNoFailures();
        }
    }
}
