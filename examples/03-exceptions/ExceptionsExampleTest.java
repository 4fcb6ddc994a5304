import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs examples/03-exceptions as Kopf's E2E test runs its example 03, against a real API server. */
@ExtendWith(LocalClusterExtension.class)
class ExceptionsExampleTest {
    @Test
    void oneHandlerSucceedsAfterRetriesAndThreeFailForGoodOnceEach(LocalCluster cluster, TemporaryNamespace namespace) {
        try (ExampleRun run = ExampleRun.start(cluster, namespace, "03-exceptions/ExceptionsExample.java")) {
            run.createObject();
            run.awaitOutput("Creation is processed:");
            run.deleteObject();

            run.assertSuccessCounts(Map.of("eventual_success_with_a_few_messages", 1));
            run.assertFailureCounts(Map.of(
                    "eventual_failure_with_tracebacks", 1,
                    "instant_failure_with_traceback", 1,
                    "instant_failure_with_only_a_message", 1));
            assertThat(run.output()).contains(
                    run.prefix() + "Handler 'instant_failure_with_only_a_message' failed permanently: Fail once and for all.",
                    run.prefix() + "Handler 'eventual_success_with_a_few_messages' failed temporarily: Expected recoverable error.",
                    "ExceptionsExample$MyException: An error that is supposed to be recoverable.");
        }
    }
}
