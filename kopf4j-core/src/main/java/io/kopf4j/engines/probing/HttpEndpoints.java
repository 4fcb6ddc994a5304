package io.kopf4j.engines.probing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * A small HTTP server on the JDK's {@code com.sun.net.httpserver}, one virtual thread per request:
 * enough for probes (no dependency, no thread pool to size).
 */
final class HttpEndpoints implements AutoCloseable {
    private final HttpServer server;

    HttpEndpoints(InetSocketAddress address) {
        try {
            server = HttpServer.create(address, 0);
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

    record Response(int status, String contentType, String body) {
    }

    void route(String path, Handler handler) {
        server.createContext(path, exchange -> respond(exchange, handler));
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

    private static void respond(HttpExchange exchange, Handler handler) throws IOException {
        try (exchange) {
            Response response = "GET".equals(exchange.getRequestMethod())
                    ? handler.handle(exchange.getRequestURI())
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
