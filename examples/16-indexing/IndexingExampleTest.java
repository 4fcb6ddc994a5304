import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs examples/16-indexing as Kopf's E2E test runs its example 16, against a real API server: a
 * labelled pod in the indexes, read by the timer and by the probes.
 */
@ExtendWith(LocalClusterExtension.class)
class IndexingExampleTest {
    @Test
    void theTimerAndTheProbesReadThePodIndexes(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        cluster.client().pods().inNamespace(namespace.name()).resource(new PodBuilder()
                .withNewMetadata().withName("kopf-pod").addToLabels("app", "demo").endMetadata()
                .withNewSpec().addNewContainer().withName("the-only-one").withImage("busybox").endContainer().endSpec()
                .build()).create();
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        try (ExampleRun run = ExampleRun.start(cluster, namespace, "16-indexing/IndexingExample.java",
                "--liveness", "http://127.0.0.1:" + port + "/healthz")) {
            run.createObject();
            run.awaitOutput(Pattern.quote(run.prefix() + "Pods by label: {[app, demo]=[kopf-pod]}"));
            HttpResponse<String> health;
            try (HttpClient http = HttpClient.newHttpClient()) {
                health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz")).build(),
                        HttpResponse.BodyHandlers.ofString());
            }
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"pod_count\":1", "\"pod_names\":[\"kopf-pod\"]");
            run.deleteObject();
            // Kopf's E2E_SUCCESS_COUNTS is empty here: the indexes and the timer run many times.
            run.assertFailureCounts(Map.of());
        }
    }
}
