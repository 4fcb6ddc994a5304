package io.kopf4j.it;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kopf4j.structs.Json;
import io.kopf4j.testing.LocalCluster;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** KopfExample objects in one namespace of the test cluster: create, patch, delete, read. */
final class KopfExamples {
    static final Path CRD = Path.of("../examples/crd.yaml");

    private final KubernetesClient client;
    private final String namespace;

    KopfExamples(LocalCluster cluster, String namespace) {
        cluster.apply(CRD);
        this.client = cluster.client();
        this.namespace = namespace;
    }

    GenericKubernetesResource create(String name, Map<String, Object> spec) {
        return create(name, spec, Map.of());
    }

    GenericKubernetesResource create(String name, Map<String, Object> spec, Map<String, String> annotations) {
        return client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace)
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("kopf.dev/v1").withKind("KopfExample")
                        .withNewMetadata().withName(name).withAnnotations(annotations).endMetadata()
                        .addToAdditionalProperties("spec", spec)
                        .build())
                .create();
    }

    void patch(String name, Map<String, Object> mergePatch) {
        client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace).withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), Json.compact(mergePatch));
    }

    void delete(String name) {
        client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace).withName(name).delete();
    }

    GenericKubernetesResource get(String name) {
        return client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace).withName(name).get();
    }

    boolean exists(String name) {
        return get(name) != null;
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> status(String name) {
        Object status = get(name).getAdditionalProperties().get("status");
        return status == null ? Map.of() : (Map<String, Object>) status;
    }

    Map<String, String> annotations(String name) {
        Map<String, String> annotations = get(name).getMetadata().getAnnotations();
        return annotations == null ? Map.of() : annotations;
    }

    List<String> finalizers(String name) {
        return get(name).getMetadata().getFinalizers();
    }

    /** How often a fragment occurs in a text (log lines counted). */
    static int count(String text, String fragment) {
        int count = 0;
        for (int at = text.indexOf(fragment); at >= 0; at = text.indexOf(fragment, at + fragment.length())) {
            count++;
        }
        return count;
    }
}
