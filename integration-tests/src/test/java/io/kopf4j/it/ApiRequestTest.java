package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.Resource;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.internal.clients.ApiRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator's own PATCH requests, sent without fabric8's resource DSL: the URLs of custom and
 * core resources, the status subresource, and failures as fabric8's exceptions with the API
 * server's code and message (which the retries and the conflict handling depend on).
 */
@ExtendWith(LocalClusterExtension.class)
class ApiRequestTest {
    private static final Resource KOPF_EXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample", "kopfexample",
            List.of(), List.of(), List.of("status"), true, true, List.of("patch"));
    private static final Resource CONFIG_MAPS = new Resource("", "v1", "configmaps", "ConfigMap", "configmap",
            List.of(), List.of(), List.of(), true, true, List.of("patch"));

    @Test
    void mergePatchesTheBodyAndTheStatusSubresourceAndAnswersWithTheObject(LocalCluster cluster, TemporaryNamespace namespace) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        examples.create("ex", Map.of("field", "old"));

        Map<String, Object> patched = ApiRequest.object(cluster.client(), KOPF_EXAMPLES, namespace.name(), "ex")
                .send("PATCH", ApiRequest.MERGE, "{\"spec\":{\"field\":\"new\"}}");
        Map<String, Object> withStatus = ApiRequest.object(cluster.client(), KOPF_EXAMPLES, namespace.name(), "ex").status()
                .send("PATCH", ApiRequest.MERGE, "{\"status\":{\"result\":42}}");

        assertThat(patched).extracting("spec").isEqualTo(Map.of("field", "new"));
        assertThat(withStatus).extracting("status").isEqualTo(Map.of("result", 42));
        assertThat(examples.status("ex")).isEqualTo(Map.of("result", 42));
        assertThat(examples.get("ex").getAdditionalProperties().get("spec")).isEqualTo(Map.of("field", "new"));
    }

    @Test
    void patchesObjectsOfTheCoreGroup(LocalCluster cluster, TemporaryNamespace namespace) {
        cluster.client().configMaps().inNamespace(namespace.name()).resource(new ConfigMapBuilder()
                .withNewMetadata().withName("cm").endMetadata().addToData("a", "1").build()).create();

        ApiRequest.object(cluster.client(), CONFIG_MAPS, namespace.name(), "cm")
                .send("PATCH", ApiRequest.JSON, "[{\"op\":\"add\",\"path\":\"/data/b\",\"value\":\"2\"}]");

        assertThat(cluster.client().configMaps().inNamespace(namespace.name()).withName("cm").get().getData())
                .isEqualTo(Map.of("a", "1", "b", "2"));
    }

    @Test
    void aFailedTestOperationIsTheApiServersUnprocessableEntity(LocalCluster cluster, TemporaryNamespace namespace) {
        new KopfExamples(cluster, namespace.name()).create("ex", Map.of());
        ApiRequest request = ApiRequest.object(cluster.client(), KOPF_EXAMPLES, namespace.name(), "ex");

        assertThatThrownBy(() -> request.send("PATCH", ApiRequest.JSON,
                "[{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"1\"},"
                        + "{\"op\":\"add\",\"path\":\"/spec/x\",\"value\":1}]"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getStatus().getCode()).isEqualTo(422);
                    assertThat(e.getMessage()).contains("PATCH at: ").contains("/kopfexamples/ex");
                });
    }

    @Test
    void aMissingObjectIsNotFound(LocalCluster cluster, TemporaryNamespace namespace) {
        new KopfExamples(cluster, namespace.name());
        ApiRequest request = ApiRequest.object(cluster.client(), KOPF_EXAMPLES, namespace.name(), "absent").status();

        assertThatThrownBy(() -> request.send("PATCH", ApiRequest.MERGE, "{\"status\":{}}"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(404);
                    assertThat(e.getStatus().getReason()).isEqualTo("NotFound");
                    assertThat(e.getStatus().getMessage()).contains("\"absent\" not found");
                });
    }
}
