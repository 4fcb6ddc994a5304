package io.kopf4j.bench;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The benchmark driver's own requests to the followed resources, counted as the API server counts
 * them (verb, resource, subresource), so that subtracting them from the server's totals leaves the
 * operator's, whatever the client library sends (a GET before a PATCH, a reconnected watch).
 *
 * <pre>{@code
 * DriverRequests driver = new DriverRequests();
 * KubernetesClient client = driver.client(cluster.kubeconfig());
 * ApiRequests own = driver.snapshot();
 * }</pre>
 */
final class DriverRequests implements Interceptor {
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    /** A client for the kubeconfig whose requests this counts. */
    KubernetesClient client(Path kubeconfig) throws IOException {
        Config config = Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString());
        // A WATCH over plain HTTP, as the operators' own: fabric8's WebSocket watches were seen to
        // close (and reconnect) under a burst of events.
        config.setOnlyHttpWatches(true);
        return new KubernetesClientBuilder()
                .withConfig(config)
                .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor("bench-driver-requests", this))
                .build();
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        String key = key(request.method(), request.uri());
        if (key != null) {
            counts.computeIfAbsent(key, k -> new LongAdder()).increment();
        }
    }

    ApiRequests snapshot() {
        Map<String, Double> copy = new TreeMap<>();
        counts.forEach((key, count) -> copy.put(key, count.doubleValue()));
        return new ApiRequests(copy);
    }

    /**
     * The API server's verb and resource of a request to a namespaced object or collection of the
     * followed resources, e.g. {@code /apis/kopf.dev/v1/namespaces/bench/kopfexamples/ex-1/status};
     * null for others.
     */
    static String key(String method, URI uri) {
        List<String> parts = Arrays.asList(uri.getPath().split("/"));
        int namespaces = parts.indexOf("namespaces");
        if (namespaces < 0 || parts.size() <= namespaces + 2 || !ApiRequests.RESOURCES.contains(parts.get(namespaces + 2))) {
            return null;
        }
        boolean named = parts.size() > namespaces + 3;
        String subresource = parts.size() > namespaces + 4 ? parts.get(namespaces + 4) : "";
        String query = uri.getQuery() == null ? "" : uri.getQuery();
        String verb = switch (method) {
            case "GET" -> query.contains("watch=true") ? "WATCH" : named ? "GET" : "LIST";
            case "DELETE" -> named ? "DELETE" : "DELETECOLLECTION";
            default -> method;
        };
        return ApiRequests.key(verb, parts.get(namespaces + 2), subresource);
    }
}
