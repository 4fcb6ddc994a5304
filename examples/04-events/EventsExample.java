import io.kopf4j.Body;
import io.kopf4j.Events;
import io.kopf4j.On;
import java.util.Map;

/**
 * Kopf's 04-events: custom Kubernetes Events for the handled object, and for another one.
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/04-events/EventsExample.java
 *   kubectl describe kopfexample kopf-example-1
 */
public class EventsExample {
    @On.Create("kopfexamples")
    public void create(Body body, String name, String namespace) {
        // The all-purpose method for the event creation.
        Events.event(body, "SomeType", "SomeReason", "Some message");

        // The shortcuts for the conventional events and common cases.
        Events.info(body, "SomeReason", "Some message");
        Events.warn(body, "SomeReason", "Some message");
        try {
            throw new IllegalStateException("Exception text.");
        } catch (IllegalStateException e) {
            Events.exception(body, "SomeReason", "Some exception:", e);
        }

        // Any other object, e.g. by its reference: here, the namespace (cluster-scoped: its events
        // go to the credentials' default namespace).
        Events.info(Map.of("apiVersion", "v1", "kind", "Namespace", "name", namespace),
                "SomeReason", "KopfExample " + name + " is created here");
    }
}
