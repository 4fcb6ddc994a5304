package io.kopf4j.clients;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.kopf4j.Resource;
import io.kopf4j.structs.Json;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One PATCH of one object (or of its {@code /status}), sent over the client's own HTTP connection
 * (with its interceptors: the vault's Authorization header, the re-login on 401, the user agent,
 * the request timeout) and answered as the patched object's map.
 *
 * <p>By hand rather than through fabric8's {@code resource(body).patch(...)}, which converts the
 * whole body into a {@code GenericKubernetesResource} only to find the URL, and parses the answer
 * into one that the operator then converts back into a map: per PATCH, those conversions cost
 * more CPU than the request itself (docs/performance.md). Failures are fabric8's
 * {@link KubernetesClientException}s, as from fabric8's own requests, so retries and error
 * messages are the same.
 *
 * <pre>{@code
 * Map<String, Object> patched = PatchRequest.of(client, resource, "default", "kopf-example-1", false)
 *         .send(PatchRequest.MERGE, "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}");
 * }</pre>
 */
public final class PatchRequest {
    /** RFC 7386 JSON Merge Patch. */
    public static final String MERGE = "application/merge-patch+json";
    /** RFC 6902 JSON Patch. */
    public static final String JSON = "application/json-patch+json";

    private final KubernetesClient client;
    private final String url;

    private PatchRequest(KubernetesClient client, String url) {
        this.client = client;
        this.url = url;
    }

    /**
     * @param namespace the object's namespace; ignored for cluster-wide resources
     * @param status    true for the object's {@code /status} subresource
     */
    public static PatchRequest of(KubernetesClient client, Resource resource, String namespace, String name, boolean status) {
        StringBuilder url = new StringBuilder(stripTrailingSlash(client.getMasterUrl().toString()));
        url.append(resource.group().isEmpty() ? "/api/" : "/apis/" + resource.group() + "/").append(resource.version());
        if (resource.namespaced()) {
            url.append("/namespaces/").append(segment(namespace));
        }
        url.append('/').append(resource.plural()).append('/').append(segment(name));
        if (status) {
            url.append("/status");
        }
        return new PatchRequest(client, url.toString());
    }

    /** Sends the patch of the given content type ({@link #MERGE}, {@link #JSON}); returns the patched object. */
    public Map<String, Object> send(String contentType, String patch) {
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder()
                .uri(url)
                .method("PATCH", contentType, patch)
                .timeout(client.getConfiguration().getRequestTimeout(), TimeUnit.MILLISECONDS)
                .build();
        HttpResponse<byte[]> response;
        try {
            response = client.getHttpClient().sendAsync(request, byte[].class).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted while patching " + url, e);
        } catch (ExecutionException e) {
            throw KubernetesClientException.launderThrowable(e.getCause());
        }
        if (response.isSuccessful()) {
            return Json.parseMap(response.body());
        }
        Status status = statusOf(response);
        throw new KubernetesClientException("Failure executing: PATCH at: " + url + ". Message: " + status.getMessage() + ".",
                response.code(), status);
    }

    /** The API server's Status from a failed response, or one made up from the code and text of another server's. */
    private static Status statusOf(HttpResponse<byte[]> response) {
        byte[] body = response.body() == null ? new byte[0] : response.body();
        try {
            Status status = Json.mapper().readValue(body, Status.class);
            if (status != null && status.getCode() != null) {
                return status;
            }
        } catch (IOException notAStatus) {
            // A proxy's or load balancer's error page: its text is the message.
        }
        return new StatusBuilder().withCode(response.code())
                .withMessage(new String(body, StandardCharsets.UTF_8).strip()).build();
    }

    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String stripTrailingSlash(String server) {
        return server.endsWith("/") ? server.substring(0, server.length() - 1) : server;
    }
}
