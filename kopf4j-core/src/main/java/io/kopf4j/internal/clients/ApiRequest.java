package io.kopf4j.internal.clients;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.kopf4j.Resource;
import io.kopf4j.internal.structs.Json;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The operator's own requests: a PATCH of one object (or of its {@code /status}), a POST to a
 * collection, a GET of an object or of a page of a listing, and the streaming GET of a watch
 * ({@link ApiStream}), sent over the client's own HTTP connection (with its interceptors: the
 * vault's Authorization header, the re-login on 401, the user agent, the request timeout) and
 * answered as maps.
 *
 * <p>By hand rather than through fabric8's {@code resource(body).patch(...)}, which converts the
 * whole body into a {@code GenericKubernetesResource} only to find the URL, and parses the answer
 * into one that the operator then converts back into a map: per PATCH, those conversions cost
 * more CPU than the request itself (docs/performance.md). Lists and watches likewise: fabric8's
 * list and watch parse each object into a {@code GenericKubernetesResource} that the operator
 * converts into a map (two parses per event instead of one), and its {@code KubernetesDeserializer} loads, on
 * first use, the model classes of every fabric8 model jar (metaspace and start-up time for types
 * that the operator never uses). Failures are fabric8's
 * {@link KubernetesClientException}s, as from fabric8's own requests, so retries and error
 * messages are the same.
 *
 * <pre>{@code
 * Map<String, Object> patched = ApiRequest.object(client, resource, "default", "kopf-example-1")
 *         .send("PATCH", ApiRequest.MERGE, "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}");
 * ApiRequest.collection(client, events, "default").send("POST", ApiRequest.CREATE, eventJson);
 ApiRequest.Listing page = ApiRequest.collection(client, resource, null).query("limit", "500").list();
 * }</pre>
 */
public final class ApiRequest {
    /** RFC 7386 JSON Merge Patch. */
    public static final String MERGE = "application/merge-patch+json";
    /** RFC 6902 JSON Patch. */
    public static final String JSON = "application/json-patch+json";
    /** A whole object, to create. */
    public static final String CREATE = "application/json";

    /**
     * Kopf's {@code TEXT_ERROR_MAX_SIZE}: a text error body (a proxy's HTML page, a data blob) is cut
     * to this length with "..." at its end, so that it does not flood the retry lines and the Events.
     */
    static final int TEXT_ERROR_MAX_SIZE = 256;
    /**
     * The API server's metadata-only listing (as controller-runtime's metadata informers ask): each
     * item a {@code PartialObjectMetadata}, its metadata without spec or status; plain JSON from a
     * server that cannot.
     */
    private static final String METADATA_ONLY = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
    private final KubernetesClient client;
    private final String url;
    /** The Accept header, or null for the client's default. */
    private final String accept;

    private ApiRequest(KubernetesClient client, String url) {
        this(client, url, null);
    }

    private ApiRequest(KubernetesClient client, String url, String accept) {
        this.client = client;
        this.url = url;
        this.accept = accept;
    }

    /** The same listing, of the objects' metadata only: far fewer bytes where only names, labels and finalizers matter. */
    public ApiRequest metadataOnly() {
        return new ApiRequest(client, url, METADATA_ONLY);
    }

    /**
     * One object's URL.
     *
     * @param namespace the object's namespace; ignored for cluster-wide resources
     */
    public static ApiRequest object(KubernetesClient client, Resource resource, String namespace, String name) {
        return new ApiRequest(client, collectionUrl(client, resource, namespace) + "/" + segment(name));
    }

    /** {@return the absolute URL, with its query} */
    public String url() {
        return url;
    }

    /** {@return the API server's URL, as errors name it when it cannot be reached} */
    public String server() {
        return client.getMasterUrl().toString();
    }

    /** The same object's {@code /status} subresource. */
    public ApiRequest status() {
        return new ApiRequest(client, url + "/status");
    }

    /**
     * The URL of a resource's objects in a namespace (ignored for cluster-wide resources), or in all
     * namespaces when {@code namespace} is null.
     */
    public static ApiRequest collection(KubernetesClient client, Resource resource, String namespace) {
        return new ApiRequest(client, collectionUrl(client, resource, namespace));
    }

    /** A path of the API server, e.g. {@code /apis} or {@code /apis/apps/v1} (the discovery's). */
    public static ApiRequest path(KubernetesClient client, String path) {
        return new ApiRequest(client, stripTrailingSlash(client.getMasterUrl().toString()) + path);
    }

    /** The same URL with a query parameter added ({@code ?name=value}, encoded); the same request for a null value. */
    public ApiRequest query(String name, String value) {
        if (value == null) {
            return this;
        }
        return new ApiRequest(client, url + (url.indexOf('?') < 0 ? '?' : '&') + name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8),
                accept);
    }

    private static String collectionUrl(KubernetesClient client, Resource resource, String namespace) {
        StringBuilder url = new StringBuilder(stripTrailingSlash(client.getMasterUrl().toString()));
        url.append(resource.group().isEmpty() ? "/api/" : "/apis/" + resource.group() + "/").append(resource.version());
        if (resource.namespaced() && namespace != null) {
            url.append("/namespaces/").append(segment(namespace));
        }
        return url.append('/').append(resource.plural()).toString();
    }

    /**
     * Sends the request: {@code PATCH} with {@link #MERGE} or {@link #JSON}, {@code POST} with
     * {@link #CREATE}; returns the object as the API server answers it.
     */
    public Map<String, Object> send(String method, String contentType, String body) {
        return Json.parseMap(exchange(method, contentType, body));
    }

    /** The answer's bytes, or fabric8's exception for a failed one. */
    private byte[] exchange(String method, String contentType, String body) {
        HttpClient http = client.getHttpClient();   // once: through the vault, each call selects a connection
        HttpRequest.Builder builder = http.newHttpRequestBuilder()
                .uri(url)
                .method(method, contentType, body)
                .timeout(client.getConfiguration().getRequestTimeout(), TimeUnit.MILLISECONDS);
        if (accept != null) {
            builder.setHeader("Accept", accept);
        }
        if ("GET".equals(method)) {
            // The API server gzips answers over 128 KB for clients that accept it (a listing of 20,000 Pods:
            // ~50 MB plain, a few MB gzipped); the JDK's client neither asks nor decodes by itself.
            builder.setHeader("Accept-Encoding", "gzip");
        }
        HttpRequest request = builder.build();
        HttpResponse<byte[]> response;
        try {
            response = http.sendAsync(request, byte[].class).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted while sending " + method + " " + url, e);
        } catch (ExecutionException e) {
            throw KubernetesClientException.launderThrowable(e.getCause());
        }
        byte[] answer = Gzip.decoded(response.body());
        if (response.isSuccessful()) {
            return answer;
        }
        throw failure(method, response, answer);
    }

    /** Gets the object, or the page of a listing, at this URL. */
    public Map<String, Object> get() {
        return send("GET", null, null);
    }

    /**
     * One page of a listing: its objects, and those that cannot be read (too deep for the parser, say)
     * apart, with what could be read of them; one such object never fails the page.
     *
     * @param items the readable objects, in the listing's order
     * @param resourceVersion the listing's version, to watch from
     * @param continueToken the token of the next page, or null for the last
     * @param unreadable the objects left out, each with its identity and why
     */
    public record Listing(List<Map<String, Object>> items, String resourceVersion, String continueToken,
                          List<UnreadableObject> unreadable) {
    }

    /** Gets a page of the listing at this URL, object by object where one cannot be read ({@link Listing}). */
    public Listing list() {
        return ObjectScan.listing(exchange("GET", null, null));
    }

    /**
     * Opens a streaming GET (a watch, with {@code watch=true} among the query parameters): each line
     * of the answer goes to {@code events} as a map as soon as it arrives, or to {@code unreadable} if
     * its object cannot be parsed ({@link UnreadableObject}). The consumers run on the HTTP client's
     * thread, one line after the other; the next bytes are read when they return.
     */
    public ApiStream stream(Consumer<Map<String, Object>> events, Consumer<UnreadableObject> unreadable) {
        HttpClient http = client.getHttpClient();
        // No request timeout, as fabric8's own watches: the server's timeoutSeconds and the caller end a stream.
        HttpRequest request = http.newHttpRequestBuilder().uri(url).forStreaming().build();
        return new ApiStream(http, request, new JsonLines(events, unreadable), (response, answer) -> failure("GET", response, answer));
    }

    /**
     * A failed answer as fabric8's exception: its code, and the API server's Status, with the delay
     * of a {@code Retry-After} header as its {@code retryAfterSeconds}: API Priority and Fairness
     * answers a 429 with the header and a text, not a Status. As in Kopf, the header wins over the
     * Status's own field; a date instead of seconds is ignored.
     */
    private KubernetesClientException failure(String method, HttpResponse<?> response, byte[] answer) {
        Status status = statusOf(response.code(), answer);
        Integer retryAfter = seconds(response.header("Retry-After"));
        if (retryAfter != null) {
            if (status.getDetails() == null) {
                status.setDetails(new StatusDetails());
            }
            status.getDetails().setRetryAfterSeconds(retryAfter);
        }
        return new KubernetesClientException("Failure executing: " + method + " at: " + url + ". Message: " + status.getMessage() + ".",
                response.code(), status);
    }

    /** Kopf's {@code int(float(value))} of a Retry-After header, or null for none, a date, or no sensible number. */
    private static Integer seconds(String retryAfter) {
        if (retryAfter == null) {
            return null;
        }
        try {
            double seconds = Double.parseDouble(retryAfter.strip());
            return seconds >= 0 && seconds <= Integer.MAX_VALUE ? (int) seconds : null;
        } catch (NumberFormatException aDate) {
            return null;
        }
    }

    /**
     * The API server's Status from a failed response, or one made up from the code and text of another
     * server's, cut as Kopf cuts it ({@link #TEXT_ERROR_MAX_SIZE}).
     */
    private static Status statusOf(int code, byte[] answer) {
        byte[] body = answer == null ? new byte[0] : answer;
        try {
            Status status = Json.mapper().readValue(body, Status.class);
            if (status != null && status.getCode() != null) {
                return status;
            }
        } catch (IOException notAStatus) {
            // A proxy's or load balancer's error page: its text is the message.
        }
        String text = new String(body, StandardCharsets.UTF_8).strip();
        if (text.length() >= TEXT_ERROR_MAX_SIZE) {
            text = text.substring(0, TEXT_ERROR_MAX_SIZE - 3) + "...";
        }
        return new StatusBuilder().withCode(code).withMessage(text).build();
    }

    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String stripTrailingSlash(String server) {
        return server.endsWith("/") ? server.substring(0, server.length() - 1) : server;
    }
}
