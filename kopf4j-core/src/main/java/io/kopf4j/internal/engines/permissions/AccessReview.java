package io.kopf4j.internal.engines.permissions;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.internal.clients.ApiRequest;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.structs.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the API server whether a verb on a resource is allowed: for the operator's own credentials
 * (a SelfSubjectAccessReview, which anyone may create), or for another user such as a service
 * account (a SubjectAccessReview, which needs {@code create} on {@code subjectaccessreviews}). Sent
 * as plain JSON over the client's connection, as the operator's other requests.
 *
 * <pre>{@code
 * AccessReview review = AccessReview.self(client, ApiRetries.of(settings).busyServerOnly());
 * boolean allowed = review.allowed("patch", "kopf.dev", "kopfexamples/status", "default");
 * AccessReview asOperator = AccessReview.of(client, ApiRetries.NONE, "system:serviceaccount:operators:my-operator",
 *         List.of("system:serviceaccounts", "system:serviceaccounts:operators", "system:authenticated"));
 * }</pre>
 */
public final class AccessReview {
    private static final Logger LOG = LoggerFactory.getLogger(AccessReview.class);

    private final KubernetesClient client;
    private final ApiRetries retries;
    private final String user;
    private final List<String> groups;

    private AccessReview(KubernetesClient client, ApiRetries retries, String user, List<String> groups) {
        this.client = client;
        this.retries = retries;
        this.user = user;
        this.groups = List.copyOf(groups);
    }

    /**
     * For the client's own credentials.
     *
     * @param client the client whose credentials are reviewed
     * @param retries how failed reviews are retried, e.g. {@code ApiRetries.NONE}
     * @return a reviewer that sends SelfSubjectAccessReviews
     */
    public static AccessReview self(KubernetesClient client, ApiRetries retries) {
        return new AccessReview(client, retries, null, List.of());
    }

    /**
     * For another user and their groups.
     *
     * @param client the client that sends the reviews: it needs {@code create} on {@code subjectaccessreviews}
     * @param retries how failed reviews are retried, e.g. {@code ApiRetries.NONE}
     * @param user the user name, e.g. {@code "system:serviceaccount:operators:my-operator"}
     * @param groups the user's groups, e.g. from {@link #serviceAccountGroups(String)}
     * @return a reviewer that sends SubjectAccessReviews
     */
    public static AccessReview of(KubernetesClient client, ApiRetries retries, String user, List<String> groups) {
        return new AccessReview(client, retries, user, groups);
    }

    /**
     * The groups a service account's credentials carry, by its user name
     * ({@code system:serviceaccount:NAMESPACE:NAME}); only {@code system:authenticated} for other users.
     *
     * @param user the user name, e.g. {@code "system:serviceaccount:operators:my-operator"}
     * @return e.g. {@code system:serviceaccounts}, {@code system:serviceaccounts:operators}, {@code system:authenticated}
     */
    public static List<String> serviceAccountGroups(String user) {
        String[] parts = user.split(":");
        if (parts.length == 4 && user.startsWith("system:serviceaccount:")) {
            return List.of("system:serviceaccounts", "system:serviceaccounts:" + parts[2], "system:authenticated");
        }
        return List.of("system:authenticated");
    }

    /**
     * Whether the credentials may do this, as the API server answers one review.
     *
     * @param verb the verb, e.g. {@code "patch"}
     * @param group the API group, e.g. {@code "kopf.dev"}; empty for the core group
     * @param resource the plural, or {@code plural/subresource}
     * @param namespace the namespace, or null for all namespaces and cluster-scoped resources
     * @return true if the review's status says allowed
     */
    public boolean allowed(String verb, String group, String resource, String namespace) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        attributes.put("verb", verb);
        attributes.put("group", group);
        int slash = resource.indexOf('/');
        attributes.put("resource", slash < 0 ? resource : resource.substring(0, slash));
        if (slash >= 0) {
            attributes.put("subresource", resource.substring(slash + 1));
        }
        if (namespace != null) {
            attributes.put("namespace", namespace);
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("resourceAttributes", attributes);
        if (user != null) {
            spec.put("user", user);
            spec.put("groups", groups);
        }
        String kind = user == null ? "SelfSubjectAccessReview" : "SubjectAccessReview";
        String body = Json.compact(Map.of("apiVersion", "authorization.k8s.io/v1", "kind", kind, "spec", spec));
        ApiRequest request = ApiRequest.path(client, "/apis/authorization.k8s.io/v1/" + kind.toLowerCase(java.util.Locale.ROOT) + "s");
        Map<String, Object> review = retries.call("POST " + request.url(), request.server(), LOG,
                () -> request.send("POST", ApiRequest.CREATE, body));
        return review.get("status") instanceof Map<?, ?> status && Boolean.TRUE.equals(status.get("allowed"));
    }
}
