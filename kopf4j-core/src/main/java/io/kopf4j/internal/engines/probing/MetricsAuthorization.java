package io.kopf4j.internal.engines.probing;

import com.sun.net.httpserver.Headers;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.internal.clients.ApiRequest;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.structs.Sha256;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may read {@code /metrics} ({@code --metrics-secure}), as controller-runtime's
 * {@code filters.WithAuthenticationAndAuthorization} decides it: the request's bearer token is
 * authenticated by the API server (a TokenReview), and its user authorised to {@code get} the
 * non-resource URL {@code /metrics} (a SubjectAccessReview), which a ClusterRole grants with
 * {@code nonResourceURLs: [/metrics]} (the {@code <name>-metrics-reader} of {@code kopf4j manifests}).
 * No token or a token the API server does not know: 401; a user without the permission: 403.
 *
 * <p>Answers are cached as the Kubernetes delegating authenticator and authorizer cache them: an
 * authenticated token a minute, an allowed user five minutes, a refusal 30 seconds; keyed by a
 * digest of the token, never the token, and bounded: a flood of made-up tokens costs each a review,
 * not the operator's memory.
 *
 * <pre>{@code
 * MetricsAuthorization access = new MetricsAuthorization(() -> client);
 * HttpEndpoints.Response refusal = access.refusal(exchange.getRequestHeaders(), "/metrics");   // null: allowed
 * }</pre>
 */
final class MetricsAuthorization implements HttpEndpoints.Guard {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsAuthorization.class);
    private static final Duration AUTHENTICATED = Duration.ofMinutes(1);
    private static final Duration ALLOWED = Duration.ofMinutes(5);
    private static final Duration DENIED = Duration.ofSeconds(30);
    private static final int CACHED_AT_MOST = 1024;

    /** A user as a TokenReview tells it. */
    private record User(String name, String uid, List<String> groups, Map<String, Object> extra) {
    }

    private record Cached<T>(T value, long until) {
        boolean fresh() {
            return System.nanoTime() < until;
        }
    }

    private final Supplier<KubernetesClient> client;
    private final Map<String, Cached<User>> users = new ConcurrentHashMap<>();
    private final Map<String, Cached<Boolean>> decisions = new ConcurrentHashMap<>();

    /** @param client the operator's client once it has logged in; null before */
    MetricsAuthorization(Supplier<KubernetesClient> client) {
        this.client = client;
    }

    @Override
    public HttpEndpoints.Response refusal(Headers headers, String path) {
        String authorization = headers.getFirst("Authorization");
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7) || authorization.length() <= 7) {
            return text(401, "Unauthorized");
        }
        KubernetesClient current = client.get();
        if (current == null) {
            return text(503, "The operator has not logged in to the API server yet");
        }
        String key = Sha256.of(authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8));
        try {
            User user = cached(users, key, () -> authenticate(current, authorization.substring(7).strip()),
                    found -> found == null ? DENIED : AUTHENTICATED);
            if (user == null) {
                return text(401, "Unauthorized");
            }
            boolean allowed = cached(decisions, key + " " + path, () -> authorize(current, user, path),
                    yes -> yes ? ALLOWED : DENIED);
            return allowed ? null : text(403, "Authorization denied for user " + user.name());
        } catch (KubernetesClientException e) {
            LOG.error("Cannot authorise a request for {}: {}", path, e.getMessage());
            return text(500, "Authorization failed");
        }
    }

    /** A TokenReview: the token's user, or null if the API server does not know the token. */
    @SuppressWarnings("unchecked")
    private static User authenticate(KubernetesClient client, String token) {
        Map<String, Object> review = review(client, "authentication.k8s.io", "tokenreviews", Map.of("token", token));
        Map<String, Object> status = (Map<String, Object>) review.getOrDefault("status", Map.of());
        if (!Boolean.TRUE.equals(status.get("authenticated")) || !(status.get("user") instanceof Map<?, ?> user)) {
            return null;
        }
        return new User(String.valueOf(user.get("username")), (String) user.get("uid"),
                user.get("groups") instanceof List<?> groups ? groups.stream().map(String::valueOf).toList() : List.of(),
                user.get("extra") instanceof Map<?, ?> extra ? (Map<String, Object>) extra : Map.of());
    }

    /** A SubjectAccessReview: may the user {@code get} the non-resource URL? */
    @SuppressWarnings("unchecked")
    private static boolean authorize(KubernetesClient client, User user, String path) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("user", user.name());
        if (user.uid() != null) {
            spec.put("uid", user.uid());
        }
        spec.put("groups", user.groups());
        spec.put("extra", user.extra());
        spec.put("nonResourceAttributes", Map.of("path", path, "verb", "get"));
        Map<String, Object> review = review(client, "authorization.k8s.io", "subjectaccessreviews", spec);
        return Boolean.TRUE.equals(((Map<String, Object>) review.getOrDefault("status", Map.of())).get("allowed"));
    }

    private static Map<String, Object> review(KubernetesClient client, String group, String plural, Map<String, Object> spec) {
        String kind = plural.equals("tokenreviews") ? "TokenReview" : "SubjectAccessReview";
        return ApiRequest.path(client, "/apis/" + group + "/v1/" + plural).send("POST", ApiRequest.CREATE,
                Json.compact(Map.of("apiVersion", group + "/v1", "kind", kind, "spec", spec)));
    }

    /** The cached answer while fresh, else a new one, cached for as long as its kind says. */
    private static <T> T cached(Map<String, Cached<T>> cache, String key, Supplier<T> fresh,
                                java.util.function.Function<T, Duration> lifetime) {
        Cached<T> known = cache.get(key);
        if (known != null && known.fresh()) {
            return known.value();
        }
        T value = fresh.get();
        if (cache.size() >= CACHED_AT_MOST) {
            cache.values().removeIf(entry -> !entry.fresh());
            if (cache.size() >= CACHED_AT_MOST) {
                cache.clear();
            }
        }
        cache.put(key, new Cached<>(value, System.nanoTime() + lifetime.apply(value).toNanos()));
        return value;
    }

    private static HttpEndpoints.Response text(int status, String message) {
        return new HttpEndpoints.Response(status, "text/plain", message + "\n");
    }
}
