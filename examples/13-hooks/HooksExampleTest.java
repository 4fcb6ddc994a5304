import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs examples/13-hooks as Kopf's E2E test runs its example 13, against a real API server: a pod
 * gets its background task, the probes report it, and the cleanup stops it.
 */
@ExtendWith(LocalClusterExtension.class)
class HooksExampleTest {
    @Test
    void activitiesRunOnceAndTheCleanupStopsThePodTasks(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        Pod pod = cluster.client().pods().inNamespace(namespace.name()).resource(new PodBuilder()
                .withNewMetadata().withName("kopf-pod").endMetadata()
                .withNewSpec().addNewContainer().withName("the-only-one").withImage("busybox").endContainer().endSpec()
                .build()).create();
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String podPrefix = "[" + namespace.name() + "/" + pod.getMetadata().getName() + "] ";

        ExampleRun run = ExampleRun.start(cluster, namespace, "13-hooks/HooksExample.java",
                "--liveness", "http://127.0.0.1:" + port + "/healthz")
                .leavesUnused("create events in NAMESPACE", "event handlers log locally, as Kopf's do; these post no Event of their own");
        try {
            run.awaitOutput("Served by the background task.");
            HttpResponse<String> health;
            try (HttpClient http = HttpClient.newHttpClient()) {
                health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz")).build(),
                        HttpResponse.BodyHandlers.ofString());
            }
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"tasks_count\":1",
                    "\"monitored_objects\":{\"" + namespace.name() + "\":[\"kopf-pod\"]}");
        } finally {
            run.close();
        }

        assertThat(run.output()).contains("Logging in in 2s...", "Starting retried...", "Cleaning up...",
                "All pod-tasks are requested to stop...", podPrefix + "Served by the background task.");
        run.assertSuccessCounts(Map.of("startup_fn_simple", 1, "startup_fn_retried", 1, "cleanup_fn", 1));
        assertThat(run.successCounts()).containsKey("login_fn");
        run.assertFailureCounts(Map.of());
    }
}
