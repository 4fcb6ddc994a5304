package com.example.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs the handlers as `kopf4j run` does, against a real kube-apiserver started for the test run. */
@ExtendWith(LocalClusterExtension.class)
class HandlersTest {
    @Test
    void greetsANewExampleInItsStatus(LocalCluster cluster, TemporaryNamespace namespace) {
        cluster.apply(Path.of("crd.yaml"));
        var examples = cluster.client().genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name());

        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-n", namespace.name(), Handlers.class.getName())) {
            examples.resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion("kopf.dev/v1").withKind("KopfExample")
                    .withNewMetadata().withName("example-1").endMetadata()
                    .addToAdditionalProperties("spec", Map.of("field", "value"))
                    .build()).create();

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertEquals(
                    Map.of("create", Map.of("message", "Hello, example-1")),
                    examples.withName("example-1").get().getAdditionalProperties().get("status")));
        }
    }
}
