package io.kopf4j.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;

/**
 * The big-cluster benchmark's Pods in one namespace: the background, {@code bg-0} … {@code bg-(N-1)},
 * which no handler is for, and the handled ones, labelled {@code bench=handled}. Each is a small
 * Pod as a Deployment would make it (one container with an image, a port, environment variables,
 * resource requests, a readiness probe; a few labels). No scheduler runs, so they stay
 * {@code Pending}; nothing but the benchmark and the operator writes them.
 *
 * <pre>{@code
 * BenchPods pods = new BenchPods(client, "bench");
 * DriverPool.forEach(20_000, "create", pods::createBackground);
 * pods.createHandled("kopf4j-1-0");
 * tracker.await("handled", pods -> BenchPods.handled(pods.get("kopf4j-1-0")), deadline);
 * }</pre>
 */
final class BenchPods {
    static final String LABEL = "bench";
    static final String HANDLED = "handled";
    /** Kopf's record of a handled object, which kopf4j writes too: it is there once the create handlers have succeeded. */
    static final String DIFF_BASE = "kopf.zalando.org/last-handled-configuration";
    private static final int APPS = 50;

    private final KubernetesClient client;
    private final String namespace;

    BenchPods(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    void createBackground(int index) {
        String app = "shop-" + index % APPS;
        create(body("bg-" + index, Map.of("app", app, "tier", "backend", "pod-template-hash", Integer.toHexString(app.hashCode()))));
    }

    void createHandled(String name) {
        create(body(name, Map.of("app", "bench", "tier", "backend", LABEL, HANDLED)));
    }

    void delete(String name) {
        client.pods().inNamespace(namespace).withName(name).delete();
    }

    /**
     * Deletes the handled Pods whose names start so, their finalizers removed first: what a failed
     * run left behind, which no operator will finalize.
     */
    void removeAll(String namePrefix) {
        for (Pod pod : client.pods().inNamespace(namespace).withLabel(LABEL, HANDLED).list().getItems()) {
            String name = pod.getMetadata().getName();
            if (name.startsWith(namePrefix)) {
                client.pods().inNamespace(namespace).withName(name)
                        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
                delete(name);
            }
        }
    }

    /** The handled Pods, for the benchmark's watch ({@link ObjectTracker}): it sees nothing of the background. */
    FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> handled() {
        return client.genericKubernetesResources("v1", "Pod").inNamespace(namespace).withLabel(LABEL, HANDLED);
    }

    /** Whether the operator has handled the Pod's creation: Kopf's record of it. */
    static boolean handled(GenericKubernetesResource pod) {
        return pod != null && pod.getMetadata().getAnnotations() != null && pod.getMetadata().getAnnotations().containsKey(DIFF_BASE);
    }

    private void create(Pod pod) {
        client.pods().inNamespace(namespace).resource(pod).create();
    }

    private static Pod body(String name, Map<String, String> labels) {
        return new PodBuilder()
                .withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .withNewSpec()
                .addNewContainer().withName("app").withImage("registry.example.com/shop/app:1.4.2").withArgs("--port=8080")
                .addNewPort().withName("http").withContainerPort(8080).endPort()
                .addNewEnv().withName("LOG_LEVEL").withValue("info").endEnv()
                .addNewEnv().withName("POD_NAME").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.name").endFieldRef()
                .endValueFrom().endEnv()
                .withNewResources().addToRequests("cpu", new Quantity("50m")).addToRequests("memory", new Quantity("64Mi"))
                .addToLimits("memory", new Quantity("128Mi")).endResources()
                .withNewReadinessProbe().withNewHttpGet().withPath("/healthz").withNewPort("http").endHttpGet().endReadinessProbe()
                .endContainer()
                .endSpec().build();
    }
}
