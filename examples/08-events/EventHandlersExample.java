import io.kopf4j.On;
import java.util.Map;
import org.slf4j.Logger;

/**
 * Kopf's 08-events: event handlers, called for every raw watch event of the resource, with no
 * state on the objects and no retries: a failing one is logged and ignored.
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/08-events/EventHandlersExample.java
 *   kubectl apply -f examples/obj.yaml
 *
 * (Kopf's 04-events, Kubernetes Events posted by handlers, is examples/04-events.)
 */
public class EventHandlersExample {
    @On.Event(value = "kopfexamples", id = "event_fn_with_error")
    public void eventFnWithError() {
        throw new IllegalStateException("Oops!");
    }

    @On.Event(value = "kopfexamples", id = "normal_event_fn")
    public void normalEventFn(Map<String, Object> event, Logger logger) {
        logger.info("Event received: {}", event);
    }
}
