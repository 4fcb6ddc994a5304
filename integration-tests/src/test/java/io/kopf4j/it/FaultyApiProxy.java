package io.kopf4j.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.internal.SSLUtils;
import io.kopf4j.envtest.LocalCluster;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain-HTTP reverse proxy between an operator and the test cluster's API server, which injects
 * the faults of an overloaded or unreachable API server: a share of the requests answered with an
 * error instead of being forwarded ({@link #inject}), or every connection cut and new ones refused
 * ({@link #cut}). The operator gets a kubeconfig for the proxy; the proxy authenticates to the API
 * server as the cluster's admin.
 *
 * <pre>{@code
 * try (FaultyApiProxy proxy = FaultyApiProxy.start(cluster)) {
 *     KopfRunner runner = fixture.run(proxy.kubeconfig(), Handlers.class);
 *     proxy.inject(0.3, Fault.TOO_MANY_REQUESTS, Fault.INTERNAL_ERROR);
 *     // ... objects created and changed meanwhile ...
 *     proxy.heal();
 * }
 * }</pre>
 */
final class FaultyApiProxy implements AutoCloseable {
    /** An answer given instead of the API server's. */
    record Fault(int status, String contentType, String body, Map<String, String> headers) {
        /**
         * API Priority and Fairness (and the older max-in-flight filter) rejecting a request: a text,
         * not a Status, and the delay only in the Retry-After header.
         */
        static final Fault TOO_MANY_REQUESTS = new Fault(429, "text/plain; charset=utf-8",
                "Too many requests, please try again later.\n", Map.of("Retry-After", "2"));
        static final Fault INTERNAL_ERROR = status(500, "InternalError", "Internal error occurred: injected by the test");
        static final Fault SERVICE_UNAVAILABLE = status(503, "ServiceUnavailable", "the server is currently unable to handle the request");

        private static Fault status(int code, String reason, String message) {
            return new Fault(code, "application/json", """
                    {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"%s","reason":"%s","code":%d}
                    """.formatted(message, reason, code).strip(), Map.of());
        }
    }

    private static final String LOOPBACK = InetAddress.getLoopbackAddress().getHostAddress();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    /** The request headers passed on; the others (compression, connection) are the proxy's own business. */
    private static final List<String> FORWARDED = List.of("Accept", "Content-Type", "User-Agent");

    private final String upstream;
    private final HttpClient http;
    private final Path kubeconfig;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Set<InputStream> streams = ConcurrentHashMap.newKeySet();
    private final Map<Integer, AtomicInteger> injected = new ConcurrentHashMap<>();
    private final AtomicInteger forwarded = new AtomicInteger();
    private final int port;
    private volatile double share;
    private volatile List<Fault> faults = List.of();
    private HttpServer server;

    private FaultyApiProxy(LocalCluster cluster, Path kubeconfig) throws Exception {
        this.upstream = cluster.serverUrl();
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .sslContext(SSLUtils.sslContext(cluster.client().getConfiguration())).build();
        this.kubeconfig = kubeconfig;
        this.server = listen(0);
        this.port = server.getAddress().getPort();
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: proxy
                  cluster: {server: "http://%s:%d"}
                users:
                - name: proxy
                  user: {}
                contexts:
                - name: proxy
                  context: {cluster: proxy, user: proxy, namespace: default}
                current-context: proxy
                """.formatted(LOOPBACK, port));
    }

    /** Starts a proxy to the cluster's API server, on a free port, forwarding everything. */
    static FaultyApiProxy start(LocalCluster cluster) throws Exception {
        return new FaultyApiProxy(cluster, Files.createTempFile("kubeconfig-proxy", ".yaml"));
    }

    /** A kubeconfig whose server is this proxy, without credentials. */
    Path kubeconfig() {
        return kubeconfig;
    }

    /** From now on, answers this share of the requests (0 to 1) with one of the faults, picked at random. */
    void inject(double share, Fault... faults) {
        this.faults = List.of(faults);
        this.share = share;
    }

    /** Forwards every request again. */
    void heal() {
        share = 0;
    }

    /** How many requests were answered with this status by the proxy itself. */
    int injected(int status) {
        AtomicInteger count = injected.get(status);
        return count == null ? 0 : count.get();
    }

    /** How many requests were forwarded to the API server. */
    int forwarded() {
        return forwarded.get();
    }

    /** Closes every connection (watches too) and refuses new ones until {@link #restore()}: a network partition. */
    synchronized void cut() {
        server.stop(0);
        streams.forEach(FaultyApiProxy::closeQuietly);
    }

    /** Accepts connections again, on the same port. */
    synchronized void restore() throws IOException {
        server = listen(port);
    }

    @Override
    public synchronized void close() throws IOException {
        cut();
        executor.close();
        http.close();
        Files.deleteIfExists(kubeconfig);
    }

    private HttpServer listen(int port) throws IOException {
        HttpServer listening = HttpServer.create(new InetSocketAddress(LOOPBACK, port), 0);
        listening.setExecutor(executor);
        listening.createContext("/", this::handle);
        listening.start();
        return listening;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            double chance = share;
            if (chance > 0 && ThreadLocalRandom.current().nextDouble() < chance) {
                List<Fault> current = faults;
                answer(exchange, current.get(ThreadLocalRandom.current().nextInt(current.size())));
            } else {
                forward(exchange);
            }
        }
    }

    private void answer(HttpExchange exchange, Fault fault) throws IOException {
        exchange.getRequestBody().readAllBytes();
        injected.computeIfAbsent(fault.status(), status -> new AtomicInteger()).incrementAndGet();
        byte[] body = fault.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", fault.contentType());
        fault.headers().forEach(exchange.getResponseHeaders()::set);
        exchange.sendResponseHeaders(fault.status(), body.length);
        exchange.getResponseBody().write(body);
    }

    /** Passes the request on and the answer back as it comes, line by line for a watch. */
    private void forward(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(upstream + exchange.getRequestURI()))
                .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        FORWARDED.forEach(name -> {
            String value = exchange.getRequestHeaders().getFirst(name);
            if (value != null) {
                request.header(name, value);
            }
        });
        String query = exchange.getRequestURI().getRawQuery();
        if (query == null || !query.contains("watch=true")) {
            request.timeout(REQUEST_TIMEOUT);
        }
        HttpResponse<InputStream> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        forwarded.incrementAndGet();
        response.headers().firstValue("Content-Type").ifPresent(type -> exchange.getResponseHeaders().set("Content-Type", type));
        exchange.sendResponseHeaders(response.statusCode(), response.statusCode() == 204 ? -1 : 0);
        InputStream in = response.body();
        streams.add(in);
        try (in; OutputStream out = exchange.getResponseBody()) {
            byte[] buffer = new byte[64 * 1024];
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                out.write(buffer, 0, read);
                out.flush();
            }
        } finally {
            streams.remove(in);
        }
    }

    private static void closeQuietly(InputStream stream) {
        try {
            stream.close();
        } catch (IOException ignored) {
            // Cut anyway.
        }
    }
}
