import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Permission;
import io.kopf4j.On;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * Kopf's 10-builtins: handlers of a built-in resource, pods. Every pod seen (created, or found at
 * startup) is deleted 30 seconds later, unless it is deleted before; pods of {@code kube-*}
 * namespaces are spared.
 *
 *   ./kopf4j run --local-cluster examples/10-builtins/BuiltinsExample.java
 *   kubectl run kopf-pod --image=busybox -- sleep 3600
 *
 * The killers are tasks scheduled on virtual threads, as Kopf's are asyncio tasks; the pods are
 * deleted with the operator's own client.
 */
@Permission(resources = "pods", verbs = "delete")
public class BuiltinsExample {
    private static final long TIMEOUT_SECONDS = 30;

    private final ScheduledExecutorService killers = Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().factory());
    /** The scheduled killers, by the pod's "namespace/name". */
    private final Map<String, ScheduledFuture<?>> tasks = new ConcurrentHashMap<>();

    @On.Resume(value = "pods", id = "pod_in_sight")
    @On.Create(value = "pods", id = "pod_in_sight")
    public void podInSight(String namespace, String name, Logger logger, KubernetesClient client) {
        if (namespace.startsWith("kube-")) {
            return;
        }
        logger.info("=== Pod killing happens in {}s.", TIMEOUT_SECONDS);
        tasks.put(namespace + "/" + name, killers.schedule(() -> {
            tasks.remove(namespace + "/" + name);
            logger.info("=== Pod killing happens NOW!");
            client.pods().inNamespace(namespace).withName(name).delete();
        }, TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }

    @On.Delete(value = "pods", id = "pod_deleted")
    public void podDeleted(String namespace, String name, Logger logger) {
        ScheduledFuture<?> task = tasks.remove(namespace + "/" + name);
        if (task != null && task.cancel(false)) {
            logger.info("=== Pod killing is cancelled!");
        }
    }
}
