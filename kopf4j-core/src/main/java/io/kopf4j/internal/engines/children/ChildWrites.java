package io.kopf4j.internal.engines.children;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.Resource;
import io.kopf4j.internal.clients.ApiRequest;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.structs.Json;
import java.util.Map;
import org.slf4j.Logger;

/**
 * The children engine's two writes, as kopf4j's own requests are made (plain JSON through
 * {@link ApiRequest}, retried as Kopf retries requests): a server-side apply of a child under the
 * operator's field manager, forcing the fields it declares (controller-runtime's
 * {@code ForceOwnership}, "most controllers should use this"), and the deletion of a child no
 * longer declared, on the condition that it is still the same object (its uid).
 *
 * <pre>{@code
 * Map<String, Object> applied = writes.apply(deployments, child, logger);
 * writes.delete(deployments, "shop", "old-web", uid, logger);
 * }</pre>
 */
final class ChildWrites {
    /** Server-side apply's content type; JSON is YAML, so the body is JSON. */
    static final String APPLY = "application/apply-patch+yaml";
    private static final int NOT_FOUND = 404;
    private static final int CONFLICT = 409;

    private final KubernetesClient client;
    private final ApiRetries retries;
    private final String fieldManager;

    ChildWrites(KubernetesClient client, ApiRetries retries, String fieldManager) {
        this.client = client;
        this.retries = retries;
        this.fieldManager = fieldManager;
    }

    /**
     * Applies the child: creates it, or changes the fields the operator declares.
     *
     * @return the child as the API server stored it
     */
    Map<String, Object> apply(Resource resource, DesiredChildren.Child child, Logger logger) {
        ApiRequest request = ApiRequest.object(client, resource, child.namespace(), child.name())
                .query("fieldManager", fieldManager).query("force", "true");
        String body = Json.compact(child.body());
        return retries.call("PATCH " + request.url(), request.server(), logger, () -> request.send("PATCH", APPLY, body));
    }

    /**
     * Deletes the child if it is still the object of this uid, in the background (the garbage
     * collector takes its own children); one already gone, or replaced, is left as it is.
     *
     * @return whether this request deleted it
     */
    boolean delete(Resource resource, String namespace, String name, String uid, Logger logger) {
        ApiRequest request = ApiRequest.object(client, resource, namespace, name);
        String options = Json.compact(Map.of("apiVersion", "v1", "kind", "DeleteOptions",
                "preconditions", Map.of("uid", uid), "propagationPolicy", "Background"));
        try {
            retries.call("DELETE " + request.url(), request.server(), logger,
                    () -> request.send("DELETE", "application/json", options));
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == NOT_FOUND || e.getCode() == CONFLICT) {
                return false;
            }
            throw e;
        }
    }
}
