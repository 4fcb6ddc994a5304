import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs examples/04-events against a real API server, under its generated RBAC: the handler's
 * Events reach the object, and the one about the namespace (cluster-scoped) goes to the
 * operator's own namespace, as in Kopf.
 */
@ExtendWith(LocalClusterExtension.class)
class EventsExampleTest {
    @Test
    void theHandlersEventsArePostedForTheObjectAndForItsNamespace(LocalCluster cluster, TemporaryNamespace namespace) {
        try (ExampleRun run = ExampleRun.start(cluster, namespace, "04-events/EventsExample.java")) {
            run.createObject();
            run.awaitOutput("Creation is processed:");
            await().atMost(ExampleRun.WAIT).untilAsserted(() -> {
                List<Event> events = cluster.client().v1().events().inNamespace(namespace.name()).list().getItems().stream()
                        .filter(event -> "SomeReason".equals(event.getReason())).toList();
                assertThat(events).filteredOn(event -> ExampleRun.OBJECT.equals(event.getInvolvedObject().getName()))
                        .extracting(Event::getType, Event::getMessage)
                        .containsExactlyInAnyOrder(
                                org.assertj.core.groups.Tuple.tuple("SomeType", "Some message"),
                                org.assertj.core.groups.Tuple.tuple("Normal", "Some message"),
                                org.assertj.core.groups.Tuple.tuple("Warning", "Some message"),
                                org.assertj.core.groups.Tuple.tuple("Error", "Some exception: Exception text."));
                assertThat(events).filteredOn(event -> "Namespace".equals(event.getInvolvedObject().getKind()))
                        .extracting(Event::getMessage).containsExactly("KopfExample " + ExampleRun.OBJECT + " is created here");
            });
            run.deleteObject();
            run.assertEverySuccessOnceAndNoFailures();
        }
    }
}
