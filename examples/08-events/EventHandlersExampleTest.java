import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs examples/08-events as Kopf's E2E test runs its example 08, against a real API server. */
@ExtendWith(LocalClusterExtension.class)
class EventHandlersExampleTest {
    @Test
    void everyWatchEventReachesTheHandlersAndTheFailingOneIsIgnored(LocalCluster cluster, TemporaryNamespace namespace) {
        try (ExampleRun run = ExampleRun.start(cluster, namespace, "08-events/EventHandlersExample.java")
                .leavesUnused("create events in NAMESPACE", "event handlers log locally, as Kopf's do; these post no Event of their own")) {
            run.createObject();
            run.awaitOutput("Event received: .*type=ADDED");
            run.deleteObject();
            run.awaitOutput("Event received: .*type=DELETED");

            // Kopf's E2E_SUCCESS_COUNTS: no changing handlers, so no patches: one event on creation, one on deletion.
            run.assertSuccessCounts(Map.of("normal_event_fn", 2));
            assertThat(run.output()).contains(
                    run.prefix() + "Handler 'event_fn_with_error' failed with an exception and will ignore it: Oops!");
            run.assertFailureCounts(Map.of());
        }
    }
}
