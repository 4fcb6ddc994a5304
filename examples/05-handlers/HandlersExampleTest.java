import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs examples/05-handlers as Kopf's E2E test runs its example 05, against a real API server. */
@ExtendWith(LocalClusterExtension.class)
class HandlersExampleTest {
    @Test
    void createFieldAndDeleteHandlersRunOnceEach(LocalCluster cluster, TemporaryNamespace namespace) {
        try (ExampleRun run = ExampleRun.start(cluster, namespace, "05-handlers/HandlersExample.java")) {
            run.createObject();
            run.awaitOutput("Creation is processed:");
            run.deleteObject();
            run.awaitOutput("Deleted, really deleted");

            assertThat(run.output()).contains(run.prefix() + "Adding the finalizer",
                    run.prefix() + "CREATED 1st", run.prefix() + "CREATED 2nd", run.prefix() + "FIELD CHANGED: null -> value",
                    run.prefix() + "DELETED 1st", run.prefix() + "DELETED 2nd")
                    .doesNotContain("RESUMED", "UPDATED");
            run.assertSuccessCounts(Map.of("create_fn_1", 1, "create_fn_2", 1, "field_fn/spec.field", 1,
                    "delete_fn_1", 1, "delete_fn_2", 1));
            run.assertEverySuccessOnceAndNoFailures();
        }
    }
}
