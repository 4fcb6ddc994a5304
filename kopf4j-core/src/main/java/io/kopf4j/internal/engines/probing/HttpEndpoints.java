package io.kopf4j.internal.engines.probing;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kopf4j.internal.runtime.HttpServerLimits;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small HTTP server on the JDK's {@code com.sun.net.httpserver}, one virtual thread per request:
 * enough for probes (no dependency, no thread pool to size).
 */
final class HttpEndpoints implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoints.class);
    private final HttpServer server;

    HttpEndpoints(InetSocketAddress address) {
        this(address, null);
    }

    /** @param tls the server's TLS (HTTPS), or null for plain HTTP */
    HttpEndpoints(InetSocketAddress address, SSLContext tls) {
        HttpServerLimits.apply();
        try {
            if (tls == null) {
                server = HttpServer.create(address, 0);
            } else {
                HttpsServer https = HttpsServer.create(address, 0);
                https.setHttpsConfigurator(new HttpsConfigurator(tls));
                server = https;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + address + ": " + e.getMessage(), e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    }

    /** Parses {@code host:port}, {@code :port} (all interfaces) or {@code port}. */
    static InetSocketAddress parse(String bindAddress) {
        int colon = bindAddress.lastIndexOf(':');
        String host = colon < 0 ? "" : bindAddress.substring(0, colon);
        String port = colon < 0 ? bindAddress : bindAddress.substring(colon + 1);
        try {
            int number = Integer.parseInt(port);
            return host.isEmpty() ? new InetSocketAddress(number) : new InetSocketAddress(host, number);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid address '" + bindAddress + "': expected HOST:PORT or :PORT");
        }
    }

    interface Handler {
        Response handle(URI uri);
    }

    /** Decides whether a request is served, before its handler runs: null to serve it, else the answer instead. */
    interface Guard {
        Response refusal(Headers headers, String path);
    }

    record Response(int status, String contentType, String body) {
    }

    /**
     * Serves this path exactly (the JDK's contexts match any path that starts with theirs:
     * {@code /metricsfoo} would be {@code /metrics}), and with {@code subpaths} the paths under it
     * ({@code /readyz/<check>}); other paths get 404.
     */
    void route(String path, boolean subpaths, Handler handler) {
        route(path, subpaths, handler, (headers, requested) -> null);
    }

    /** As {@link #route(String, boolean, Handler)}, each request asked of the guard first. */
    void route(String path, boolean subpaths, Handler handler, Guard guard) {
        server.createContext(path, exchange -> {
            String requested = exchange.getRequestURI().getPath();
            boolean served = requested.equals(path) || subpaths && requested.startsWith(path.endsWith("/") ? path : path + "/");
            Response refusal = served ? guard.refusal(exchange.getRequestHeaders(), requested) : null;
            respond(exchange, !served ? uri -> new Response(404, "text/plain", "404 page not found\n")
                    : refusal != null ? uri -> refusal : handler);
        });
    }

    void start() {
        server.start();
    }

    InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** A failure of the endpoint's own is its answer (500), never the server's. */
    private static Response handled(Handler handler, URI uri) {
        try {
            return handler.handle(uri);
        } catch (RuntimeException | StackOverflowError e) {
            LOG.error("Serving {} failed: {}", uri.getPath(), e.toString(), e);
            return new Response(500, "text/plain", "internal server error\n");
        }
    }

    private static void respond(HttpExchange exchange, Handler handler) throws IOException {
        try (exchange) {
            Response response = "GET".equals(exchange.getRequestMethod())
                    ? handled(handler, exchange.getRequestURI())
                    : new Response(405, "text/plain", "method not allowed\n");
            byte[] body = response.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", response.contentType() + "; charset=utf-8");
            exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            exchange.sendResponseHeaders(response.status(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
