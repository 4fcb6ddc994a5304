import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs examples/17-admission against a real API server, which calls the example's webhooks on
 * 127.0.0.1: Kopf's object gets the mutation, and the validations reject what they should.
 */
@ExtendWith(LocalClusterExtension.class)
class AdmissionExampleTest {
    private static final String MANAGED = "auto.kopf.dev";

    @Test
    void theApiServerCallsTheExamplesWebhooks(LocalCluster cluster, TemporaryNamespace namespace) {
        KubernetesClient client = cluster.client();
        try (ExampleRun run = ExampleRun.start(cluster, namespace, "17-admission/AdmissionExample.java")) {
            run.awaitOutput("Reconfiguring the validating webhook auto\\.kopf\\.dev\\.",
                    "Reconfiguring the mutating webhook auto\\.kopf\\.dev\\.");
            // The API server loads new configurations asynchronously: dry runs until validate2 rejects.
            await().atMost(ExampleRun.WAIT).untilAsserted(() -> assertThatThrownBy(
                    () -> example(client, namespace, "lazy", "not-allowed").dryRun().create())
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining("I'm too lazy anyway. Go away!"));

            run.createObject();
            assertThat(spec(client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name())
                    .withName(ExampleRun.OBJECT).get())).containsEntry("injected", 123).containsEntry("field", "value");

            assertThatThrownBy(() -> example(client, namespace, "wrong", "wrong").create())
                    .hasMessageContaining("denied the request: Meh! I don't like it. Change the field.");
            example(client, namespace, "dry-wrong", "wrong").dryRun().create();   // validate1 lets dry runs pass

            GenericKubernetesResource unlabelled = example(client, namespace, "plain", "value").create();
            assertThat(spec(unlabelled)).doesNotContainKey("injected");
            run.deleteObject();
        } finally {
            client.admissionRegistration().v1().validatingWebhookConfigurations().withName(MANAGED).delete();
            client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(MANAGED).delete();
        }
    }

    private static Resource<GenericKubernetesResource> example(KubernetesClient client, TemporaryNamespace namespace,
                                                               String name, String field) {
        return client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name())
                .resource(new GenericKubernetesResourceBuilder().withApiVersion("kopf.dev/v1").withKind("KopfExample")
                        .withNewMetadata().withName(name).endMetadata()
                        .addToAdditionalProperties("spec", Map.of("field", field)).build());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource object) {
        return (Map<String, Object>) object.getAdditionalProperties().get("spec");
    }
}
