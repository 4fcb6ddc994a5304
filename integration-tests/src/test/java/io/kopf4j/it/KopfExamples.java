package io.kopf4j.it;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.internal.structs.Json;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Objects of one kind in one namespace of the test cluster, KopfExamples unless told otherwise:
 * create, patch, delete, read.
 */
final class KopfExamples {
    static final Path CRD = Path.of("../examples/crd.yaml");
    /** Kopf's default finalizer, which holds objects with delete handlers. */
    static final String FINALIZER = "kopf.zalando.org/KopfFinalizerMarker";

    private final KubernetesClient client;
    private final String namespace;
    private final String apiVersion;
    private final String kind;

    /** KopfExamples; installs their CRD if it is not there yet. */
    KopfExamples(LocalCluster cluster, String namespace) {
        this(cluster.client(), namespace, "kopf.dev/v1", "KopfExample");
        cluster.apply(CRD);
    }

    /** Objects of another kind, whose CRD is installed. */
    KopfExamples(KubernetesClient client, String namespace, String apiVersion, String kind) {
        this.client = client;
        this.namespace = namespace;
        this.apiVersion = apiVersion;
        this.kind = kind;
    }

    GenericKubernetesResource create(String name, Map<String, Object> spec) {
        return create(name, spec, Map.of());
    }

    GenericKubernetesResource create(String name, Map<String, Object> spec, Map<String, String> annotations) {
        return create(name, spec, annotations, Map.of());
    }

    GenericKubernetesResource create(String name, Map<String, Object> spec, Map<String, String> annotations,
                                     Map<String, String> labels) {
        return objects()
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion(apiVersion).withKind(kind)
                        .withNewMetadata().withName(name).withAnnotations(annotations).withLabels(labels).endMetadata()
                        .addToAdditionalProperties("spec", spec)
                        .build())
                .create();
    }

    void patch(String name, Map<String, Object> mergePatch) {
        objects().withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), Json.compact(mergePatch));
    }

    /** Merges the fields into the object's status (through the status subresource); returns its new resourceVersion. */
    String patchStatus(String name, Map<String, Object> fields) {
        return objects().withName(name)
                .subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), Json.compact(Map.of("status", fields)))
                .getMetadata().getResourceVersion();
    }

    void delete(String name) {
        objects().withName(name).delete();
    }

    GenericKubernetesResource get(String name) {
        return objects().withName(name).get();
    }

    /** All objects of the kind in the namespace, read in one request. */
    List<GenericKubernetesResource> list() {
        return objects().list().getItems();
    }

    boolean exists(String name) {
        return get(name) != null;
    }

    private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> objects() {
        return client.genericKubernetesResources(apiVersion, kind).inNamespace(namespace);
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
