import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs examples/15-timers as Kopf's E2E test runs its example 15, against a real API server. */
@ExtendWith(LocalClusterExtension.class)
class TimersExampleTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void timersPingOnceTheObjectIsQuietAndStopWhenItIsDeleted(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        cluster.apply(Path.of("crd.yaml"));
        KubernetesClient client = cluster.client();
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-v", "-n", namespace.name(),
                "15-timers/TimersExample.java")) {
            try (InputStream yaml = Files.newInputStream(Path.of("obj.yaml"))) {
                client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name()).load(yaml).create();
            }
            String prefix = "[" + namespace.name() + "/kopf-example-1] ";
            await().atMost(WAIT).until(() -> runner.output().contains(prefix + "Ping from a sync timer: field=value")
                    && runner.output().contains(prefix + "Ping from an async timer: field=value"));
            client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name())
                    .withName("kopf-example-1").delete();
            await().atMost(WAIT).until(() -> client.genericKubernetesResources("kopf.dev/v1", "KopfExample")
                    .inNamespace(namespace.name()).withName("kopf-example-1").get() == null);
        }
    }
}
