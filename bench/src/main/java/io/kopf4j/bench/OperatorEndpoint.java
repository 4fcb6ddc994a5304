package io.kopf4j.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * One of the operator's own HTTP endpoints ({@code /metrics}, Kopf's liveness endpoint) on a free
 * port of the loopback interface, read with the JDK's HttpClient: a request to the operator, not to
 * the API server, so it shows in none of the API server's request counts.
 *
 * <pre>{@code
 * OperatorEndpoint metrics = OperatorEndpoint.onFreePort("/metrics");
 * List<String> options = List.of("--metrics-bind-address=" + metrics.hostAndPort());
 * String text = metrics.get();   // once the operator serves it
 * }</pre>
 */
record OperatorEndpoint(int port, String path) {
    private static final String HOST = "127.0.0.1";
    // HTTP/1.1: the JDK's default (HTTP/2) would ask the operator's plain server to upgrade first.
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    /**
     * An endpoint on a port that is free now. The operator binds it seconds later; if another
     * process took it meanwhile, the operator fails to start, visibly, rather than skewing a figure.
     */
    static OperatorEndpoint onFreePort(String path) throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return new OperatorEndpoint(probe.getLocalPort(), path);
        }
    }

    /** For {@code --metrics-bind-address}: {@code 127.0.0.1:PORT}. */
    String hostAndPort() {
        return HOST + ":" + port;
    }

    /** For {@code --liveness}, and what {@link #get()} reads: {@code http://127.0.0.1:PORT/path}. */
    URI uri() {
        return URI.create("http://" + hostAndPort() + path);
    }

    /**
     * The body of a GET.
     *
     * @throws IOException also for an answer other than 200
     */
    String get() throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri()).timeout(REQUEST_TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(uri() + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** Whether a GET answers 200 now (the operator may not listen yet). */
    boolean isReady() throws InterruptedException {
        try {
            get();
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }
}
