package io.kopf4j.clients;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kopf4j.structs.Json;
import java.net.HttpURLConnection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sends an accumulated merge patch: the body with one PATCH, and {@code status} with another to
 * the {@code /status} subresource where the resource has one (the main endpoint would silently
 * drop it). A 404 means the object is gone, which is not an error.
 */
public final class ObjectPatcher {
    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

    private final KubernetesClient client;

    public ObjectPatcher(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Applies the patch and returns the object's resourceVersion after the last PATCH, or null if
     * the object no longer exists.
     */
    public String patch(io.kopf4j.Resource resource, String namespace, String name, Map<String, Object> patch) {
        Map<String, Object> body = new LinkedHashMap<>(patch);
        Object status = resource.hasStatusSubresource() ? body.remove("status") : null;
        Resource<GenericKubernetesResource> object = Resources.object(client, resource, namespace, name);
        try {
            GenericKubernetesResource result = null;
            if (!body.isEmpty()) {
                result = object.patch(MERGE, Json.compact(body));
            }
            if (status != null) {
                result = object.subresource("status").patch(MERGE, Json.compact(Map.of("status", status)));
            }
            return result == null ? null : result.getMetadata().getResourceVersion();
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }
}
