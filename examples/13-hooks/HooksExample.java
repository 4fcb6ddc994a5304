import io.kopf4j.ConnectionInfo;
import io.kopf4j.ErrorsMode;
import io.kopf4j.Logins;
import io.kopf4j.On;
import io.kopf4j.TemporaryError;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * Kopf's 13-hooks: the operator's own handlers: startup (one retried), login, liveness probes and
 * cleanup, around a background task per pod that the cleanup asks to stop.
 *
 *   ./kopf4j run --local-cluster --liveness http://127.0.0.1:8080/healthz examples/13-hooks/HooksExample.java
 *   kubectl run kopf-pod --image=busybox -- sleep 3600
 *   curl http://127.0.0.1:8080/healthz        # ... "tasks_count":1 ... "monitored_objects":{"default":["kopf-pod"]} ...
 *
 * Kopf's startup handler creates an asyncio lock, which needs the running loop; Java needs no such
 * thing: the stop flags are kept in a concurrent map, which also makes their creation atomic.
 * The background tasks are virtual threads that sleep on their stop flag (a {@link CountDownLatch}
 * of one, Kopf's {@code asyncio.Event}), so that the cleanup stops them at once.
 */
public class HooksExample {
    /** The stop flags of the background tasks, by namespace, then by pod name. */
    private final Map<String, Map<String, CountDownLatch>> stoppers = new ConcurrentHashMap<>();

    @On.Startup(id = "startup_fn_simple")
    public void startupSimple(Logger logger) {
        logger.info("Initialising the task registry...");
    }

    @On.Startup(id = "startup_fn_retried")
    public void startupRetried(int retry, Logger logger) {
        if (retry < 3) {
            throw new TemporaryError("Going to succeed in " + (3 - retry) + "s", Duration.ofSeconds(1));
        }
        logger.info("Starting retried...");
    }

    @On.Cleanup(id = "cleanup_fn")
    public void cleanup(Logger logger) {
        logger.info("Cleaning up...");
        stoppers.values().forEach(flags -> flags.values().forEach(CountDownLatch::countDown));
        logger.info("All pod-tasks are requested to stop...");
    }

    /** A failed login fails the start at once. The credentials expire in 30 seconds: then it logs in again. */
    @On.Login(id = "login_fn", errors = ErrorsMode.PERMANENT)
    public ConnectionInfo login(Logger logger) throws InterruptedException {
        logger.info("Logging in in 2s...");
        Thread.sleep(Duration.ofSeconds(2));
        return Logins.withKubeconfig().toBuilder().expiration(Instant.now().plusSeconds(30)).build();
    }

    @On.Probe(id = "tasks_count")
    public int tasksCount() {
        return stoppers.values().stream().mapToInt(Map::size).sum();
    }

    @On.Probe(id = "monitored_objects")
    public Map<String, TreeSet<String>> monitoredObjects() {
        Map<String, TreeSet<String>> objects = new TreeMap<>();
        stoppers.forEach((namespace, flags) -> objects.put(namespace, new TreeSet<>(flags.keySet())));
        return objects;
    }

    @On.Event(value = "pods", id = "pod_task")
    public void podTask(String namespace, String name, Logger logger) {
        stoppers.computeIfAbsent(namespace, key -> new ConcurrentHashMap<>()).computeIfAbsent(name, key -> {
            CountDownLatch flag = new CountDownLatch(1);
            Thread.ofVirtual().name("pod-task-" + namespace + "/" + name).start(() -> serve(logger, flag));
            return flag;
        });
    }

    private static void serve(Logger logger, CountDownLatch stop) {
        try {
            while (!stop.await(ThreadLocalRandom.current().nextInt(1, 11), TimeUnit.SECONDS)) {
                logger.info("Served by the background task.");
            }
            logger.info("Serving is finished by request.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
