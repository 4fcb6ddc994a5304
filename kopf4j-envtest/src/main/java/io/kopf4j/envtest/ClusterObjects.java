package io.kopf4j.envtest;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kopf4j.Resource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a local cluster's user does to its objects in place of the tools and controllers it lacks:
 * applying YAML files (CRDs waited for until served), and writing an object's status as its
 * controller would. Used by {@link LocalCluster} in tests and by {@code kopf4j run --crd} and
 * {@code kopf4j set-status} on a kept cluster.
 *
 * <pre>{@code
 * ClusterObjects objects = new ClusterObjects(client);
 * objects.apply(Path.of("examples/crd.yaml"));
 * objects.setStatus(persistentVolumeClaims, "default", "data", Map.of("phase", "Bound"));
 * }</pre>
 */
public final class ClusterObjects {
    private static final Duration CRD_TIMEOUT = Duration.ofSeconds(60);

    private final KubernetesClient client;

    /**
     * Objects applied and patched through this client.
     *
     * @param client an admin client, e.g. {@code cluster.client()}; not closed here
     */
    public ClusterObjects(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Applies the objects of YAML files (server-side apply) and waits until every
     * CustomResourceDefinition among them is Established and served.
     *
     * @param files YAML files of one or many documents, e.g. {@code Path.of("examples/crd.yaml")}
     */
    public void apply(Path... files) {
        List<CustomResourceDefinition> crds = new ArrayList<>();
        for (Path file : files) {
            try (InputStream in = Files.newInputStream(file)) {
                for (HasMetadata item : client.load(in).items()) {
                    HasMetadata applied = client.resource(item).fieldManager("kopf4j").forceConflicts().serverSideApply();
                    if (applied instanceof CustomResourceDefinition crd) {
                        crds.add(crd);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        crds.forEach(this::awaitServed);
    }

    /**
     * Sets fields of an object's status as its controller would: a JSON merge patch of
     * {@code status}, so the fields given replace theirs, the others stay, and a null value removes
     * one. It goes to the {@code /status} subresource where the resource has one (the main endpoint
     * ignores the status there), else to the object itself.
     *
     * @param resource the object's resource, e.g. from {@code ApiCatalog.live(client).resolve("pvc")}
     * @param namespace the object's namespace, or null for a cluster-scoped object
     * @param name the object's name, e.g. {@code "data"}
     * @param status the fields to set, e.g. {@code Map.of("phase", "Bound")}; a null value removes a field
     * @return the object as the API server stored it
     */
    public GenericKubernetesResource setStatus(Resource resource, String namespace, String name, Map<String, Object> status) {
        String json = client.getKubernetesSerialization().asJson(Map.of("status", status));
        ResourceDefinitionContext context = new ResourceDefinitionContext.Builder()
                .withGroup(resource.group()).withVersion(resource.version()).withPlural(resource.plural())
                .withKind(resource.kind()).withNamespaced(resource.namespaced()).build();
        var objects = client.genericKubernetesResources(context);
        var object = namespace == null ? objects.withName(name) : objects.inNamespace(namespace).withName(name);
        PatchContext merge = PatchContext.of(PatchType.JSON_MERGE);
        return resource.hasStatusSubresource() ? object.subresource("status").patch(merge, json) : object.patch(merge, json);
    }

    private void awaitServed(CustomResourceDefinition crd) {
        String name = crd.getMetadata().getName();
        client.apiextensions().v1().customResourceDefinitions().withName(name).waitUntilCondition(
                current -> current != null && current.getStatus() != null && current.getStatus().getConditions() != null
                        && current.getStatus().getConditions().stream()
                        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus())),
                CRD_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        // Established precedes the discovery documents by a moment; operators resolve through discovery.
        String group = crd.getSpec().getGroup();
        String plural = crd.getSpec().getNames().getPlural();
        long deadline = System.nanoTime() + CRD_TIMEOUT.toNanos();
        for (var version : crd.getSpec().getVersions()) {
            while (!discoveryLists(group + "/" + version.getName(), plural)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("CRD " + name + " is established but not served at " + group + "/" + version.getName());
                }
                ControlPlane.sleepQuietly(Duration.ofMillis(50));
            }
        }
    }

    private boolean discoveryLists(String groupVersion, String plural) {
        var resources = client.getApiResources(groupVersion);
        return resources != null && resources.getResources().stream().anyMatch(r -> plural.equals(r.getName()));
    }
}
