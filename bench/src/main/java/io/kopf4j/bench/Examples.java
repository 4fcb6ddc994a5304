package io.kopf4j.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;

/**
 * The benchmarks' objects, KopfExamples of {@code examples/crd.yaml} in one namespace, and the
 * benchmark's requests on them: the N objects of a run are {@code ex-0} … {@code ex-(N-1)}, each
 * created with {@code spec.generation} 1; {@code ex-startup} is created before the operator starts,
 * to tell when it has started.
 *
 * <pre>{@code
 * Examples examples = new Examples(client, "bench");
 * DriverPool.forEach(1000, "create", examples::create);
 * boolean held = Examples.hasFinalizer(object, Examples.KOPF_FINALIZER);
 * }</pre>
 */
final class Examples {
    static final String STARTUP = "ex-startup";
    /** Kopf's finalizer ({@code settings.persistence.finalizer}), the mark of an object with daemons or timers. */
    static final String KOPF_FINALIZER = "kopf.zalando.org/KopfFinalizerMarker";

    private final NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> collection;

    Examples(KubernetesClient client, String namespace) {
        this.collection = client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace);
    }

    /** For the benchmark's watch ({@link ObjectTracker}). */
    NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> collection() {
        return collection;
    }

    static String name(int index) {
        return "ex-" + index;
    }

    void create(int index) {
        create(name(index));
    }

    void create(String name) {
        collection.resource(body(name)).create();
    }

    /** A merge patch of {@code spec.generation}. */
    void setGeneration(int index, int generation) {
        // Through a body, not withName(...): fabric8 would GET the object before each PATCH, which
        // the API server 1.20 even counts as a LIST (kubernetes/kubernetes#95556).
        collection.resource(body(name(index))).patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"generation\":" + generation + "}}");
    }

    void delete(int index) {
        collection.withName(name(index)).delete();
    }

    /** The result the benchmark's handlers (and the floor) write: {@code status.<key>.generation}. */
    static boolean hasResult(GenericKubernetesResource object, String key, int generation) {
        return object != null && object.getAdditionalProperties().get("status") instanceof Map<?, ?> status
                && status.get(key) instanceof Map<?, ?> result && Integer.valueOf(generation).equals(result.get("generation"));
    }

    static boolean hasFinalizer(GenericKubernetesResource object, String finalizer) {
        return object != null && object.getMetadata().getFinalizers() != null
                && object.getMetadata().getFinalizers().contains(finalizer);
    }

    private static GenericKubernetesResource body(String name) {
        return new GenericKubernetesResourceBuilder().withApiVersion("kopf.dev/v1").withKind("KopfExample")
                .withNewMetadata().withName(name).endMetadata()
                .addToAdditionalProperties("spec", Map.of("generation", 1)).build();
    }
}
