package io.kopf4j.internal.clients;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;

/**
 * A stand-in API server for unit tests: an HTTP server on a free loopback port that answers as the
 * test's handler says, and a fabric8 client of it without fabric8's own retries.
 *
 * <pre>{@code
 * try (FakeApiServer server = new FakeApiServer(exchange -> { ... })) {
 *     ApiRequest.path(server.client(), "/apis").get();
 * }
 * }</pre>
 */
final class FakeApiServer implements AutoCloseable {
    private final HttpServer server;
    private final KubernetesClient client;

    FakeApiServer(HttpHandler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", handler);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());   // requests in flight at once, as on an API server
        server.start();
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
                .withRequestRetryBackoffLimit(0).build()).build();
    }

    KubernetesClient client() {
        return client;
    }

    @Override
    public void close() {
        client.close();
        server.stop(0);
    }
}
