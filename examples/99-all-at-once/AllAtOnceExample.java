import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Body;
import io.kopf4j.Diff;
import io.kopf4j.Events;
import io.kopf4j.On;
import io.kopf4j.Permission;
import io.kopf4j.TemporaryError;
import io.kopf4j.kits.Hierarchies;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;

/**
 * Kopf's 99-all-at-once: most kinds of handlers in one operator: startup (one retried), cleanup,
 * two create handlers (one failing once and retried), a create handler making a child Pod, update,
 * field and delete handlers, and an event handler of the children.
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/99-all-at-once/AllAtOnceExample.java
 *   kubectl apply -f examples/obj.yaml
 *   kubectl patch kopfexample kopf-example-1 --type merge -p '{"spec":{"lst":[1,2]}}'
 *   kubectl delete -f examples/obj.yaml
 *
 * The handler ids are Kopf's function names, as stored on the objects.
 */
@Permission(resources = "pods", verbs = "create")
public class AllAtOnceExample {
    @On.Startup(id = "startup_fn_simple")
    public void startupSimple(Logger logger) throws InterruptedException {
        logger.info("Starting in 1s...");
        Thread.sleep(Duration.ofSeconds(1));
    }

    @On.Startup(id = "startup_fn_retried")
    public void startupRetried(int retry, Logger logger) {
        if (retry < 3) {
            throw new TemporaryError("Going to succeed in " + (3 - retry) + "s", Duration.ofSeconds(1));
        }
        logger.info("Starting retried...");
    }

    @On.Cleanup(id = "cleanup_fn")
    public void cleanup(Logger logger) throws InterruptedException {
        logger.info("Cleaning up in 3s...");
        Thread.sleep(Duration.ofSeconds(3));
    }

    @On.Create(value = "kopfexamples", id = "create_1")
    public Map<String, Object> create1(Body body) {
        List<Object> children = createChildren(body);

        Events.info(body, "AnyReason", "");
        Events.event(body, "Warning", "SomeReason", "Cannot do something");
        Events.event(children, "Normal", "SomeReason", "Created as part of the job1step");

        return Map.of("job1-status", 100);
    }

    /** Kopf's retries after its default backoff (60 s); here after 1 s, so that the demo (and its test) does not wait. */
    @On.Create(value = "kopfexamples", id = "create_2", backoff = 1)
    public Map<String, Object> create2(int retry) throws InterruptedException {
        waitForSomething();   // specific for job2, e.g. an external API poller

        if (retry == 0) {
            // will be retried by the framework, even if it has been restarted
            throw new IllegalStateException("Whoops!");
        }
        return Map.of("job2-status", 100);
    }

    @On.Update("kopfexamples")
    public void update(Diff diff, Logger logger) {
        logger.info("Handling the diff: {}", diff);
    }

    @On.Field(value = "kopfexamples", field = "spec.lst", id = "update_lst")
    public void updateLst(Object old, Object current, Logger logger) {
        logger.info("Handling the FIELD = {} -> {}", old, current);
    }

    @On.Delete("kopfexamples")
    public void delete() {
    }

    @On.Create(value = "kopfexamples", id = "create_pod")
    public void createPod(KubernetesClient client) {
        // Render the pod yaml with some spec fields used in the template.
        Pod pod = client.getKubernetesSerialization().unmarshal("""
                apiVersion: v1
                kind: Pod
                spec:
                  containers:
                  - name: the-only-one
                    image: busybox
                    command: ["sh", "-x", "-c", "sleep 1"]
                """, Pod.class);

        // Make it our child: assign the namespace, name, labels, owner references, etc.
        Hierarchies.adopt(pod);
        Hierarchies.label(pod, Map.of("application", "kopf-example-10"));

        // Actually create an object by requesting the Kubernetes API.
        client.pods().resource(pod).create();
    }

    @On.Event(value = "pods", labels = "application=kopf-example-10", id = "example_pod_change")
    public void examplePodChange(Logger logger) {
        logger.info("This pod is special for us.");
    }

    private static List<Object> createChildren(Body owner) {
        return List.of();
    }

    private static void waitForSomething() throws InterruptedException {
        Thread.sleep(Duration.ofSeconds(1));
    }
}
