package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.kits.webhooks.WebhookServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a request can do to the servers kopf4j runs (probes, metrics, the admission webhook server),
 * tried on an operator in a JVM of its own, as a pod runs it (the JDK's server reads its limits once
 * per JVM): no body, connection or path takes it down or holds its resources (docs/faults.md,
 * "Hostile input").
 */
@ExtendWith(LocalClusterExtension.class)
class HostileRequestsTest {
    /** The server's request limit is 10 s, checked every second: a margin for a busy machine, far below the 30 s of before. */
    private static final Duration CLOSED_WITHIN = Duration.ofSeconds(20);
    /*
     * Where the operator's servers listen, as it logs them (the webhook server's line at DEBUG): each is
     * bound to a port of the system's choice, since a port picked free beforehand may be taken by
     * another test JVM before the operator binds it.
     */
    private static final Pattern PROBES = Pattern.compile("Health probes at http://127\\.0\\.0\\.1:(\\d+)/");
    private static final Pattern METRICS = Pattern.compile("Metrics at http://127\\.0\\.0\\.1:(\\d+)/");
    private static final Pattern WEBHOOK = Pattern.compile("Listening for webhooks at https://127\\.0\\.0\\.1:(\\d+)");

    public static class Handlers {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.admission.server = new WebhookServer().addr("127.0.0.1");   // a free port
        }

        @On.Validate("kopfexamples")
        public void validate() {
        }
    }

    private Process operator;
    private final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        if (operator != null) {
            operator.destroyForcibly();
        }
    }

    private record Ports(int probes, int metrics, int webhook) {
    }

    private Ports start(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        Path log = Files.createTempFile("hostile-requests", ".log");
        operator = new OperatorFixture(cluster, namespace).runInOwnJvm(log, Map.of(), Handlers.class, "-v",
                "--health-probe-bind-address=127.0.0.1:0", "--metrics-bind-address=127.0.0.1:0");
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            String output = readLog(log);
            return Stream.of(PROBES, METRICS, WEBHOOK).allMatch(pattern -> pattern.matcher(output).find());
        });
        String output = readLog(log);
        Ports ports = new Ports(port(PROBES, output), port(METRICS, output), port(WEBHOOK, output));
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> get(ports.probes(), "/readyz") == 200
                && connect(ports.webhook()) != null);
        return ports;
    }

    private static String readLog(Path log) throws IOException {
        return Files.readString(log, StandardCharsets.ISO_8859_1);   // any bytes: a line may be cut mid-character
    }

    private static int port(Pattern logged, String output) {
        Matcher matcher = logged.matcher(output);
        assertThat(matcher.find()).as(logged.pattern()).isTrue();
        return Integer.parseInt(matcher.group(1));
    }

    @Test
    void aBodyAboveTheLimitIsRefusedUnreadAndTheServerGoesOn(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        Ports ports = start(cluster, namespace);
        // 200 MB declared, none of it sent: the answer comes without the body ever being read.
        try (SSLSocket socket = tls(ports.webhook())) {
            write(socket, "POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 209715200\r\n\r\n");
            assertThat(statusLine(socket)).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
        }
        // 8 MB chunked: refused once past 1 MiB.
        try (SSLSocket socket = tls(ports.webhook())) {
            write(socket, "POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
            String chunk = Integer.toHexString(64 * 1024) + "\r\n" + "x".repeat(64 * 1024) + "\r\n";
            // Sent from another thread while this one waits for the answer: the server answers and closes
            // before all is sent, and an answer not yet read when the connection is reset would be lost.
            Thread sender = Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; i < 128; i++) {
                        write(socket, chunk);
                    }
                } catch (IOException closedEarly) {
                    // The server answered and closed before all was sent: the point.
                }
            });
            assertThat(statusLine(socket)).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
            sender.join(10_000);
        }
        // Under /convert/ the limit is the conversions' (16 MiB): 20 MB declared is refused unread; 2 MiB is
        // read, and then refused as no ConversionReview of an operator that converts nothing, not for its size.
        try (SSLSocket socket = tls(ports.webhook())) {
            write(socket, "POST /convert/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20971520\r\n\r\n");
            assertThat(statusLine(socket)).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
        }
        try (SSLSocket socket = tls(ports.webhook())) {
            String big = "{\"kind\":\"AdmissionReview\",\"pad\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}";
            write(socket, "POST /convert/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + big.length() + "\r\n\r\n" + big);
            assertThat(statusLine(socket)).isEqualTo("HTTP/1.1 404 Not Found");
        }
        // A usual request is served as before.
        try (SSLSocket socket = tls(ports.webhook())) {
            String review = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"1\","
                    + "\"kind\":{\"group\":\"kopf.dev\",\"version\":\"v1\",\"kind\":\"KopfExample\"},\"resource\":{\"group\":"
                    + "\"kopf.dev\",\"version\":\"v1\",\"resource\":\"kopfexamples\"},\"operation\":\"CREATE\",\"userInfo\":{},"
                    + "\"object\":{\"apiVersion\":\"kopf.dev/v1\",\"kind\":\"KopfExample\",\"metadata\":{\"name\":\"x\"}}}}";
            write(socket, "POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + review.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + review);
            assertThat(statusLine(socket)).isEqualTo("HTTP/1.1 200 OK");
        }
        assertThat(operator.isAlive()).isTrue();
        assertThat(get(ports.probes(), "/healthz")).isEqualTo(200);
    }

    @Test
    void silentAndSlowConnectionsAreClosedByEveryServer(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        Ports ports = start(cluster, namespace);
        List<Socket> held = new ArrayList<>();
        for (int port : List.of(ports.probes(), ports.metrics(), ports.webhook())) {
            for (int i = 0; i < 20; i++) {
                held.add(connect(port));   // silent: for the webhook server, no TLS handshake either
            }
            Socket slow = connect(port);
            write(slow, port == ports.webhook() ? "\u0016\u0003\u0001" : "GET /metrics HTTP/1.1\r\nHost: x\r\n");   // never finished
            held.add(slow);
        }
        long started = System.nanoTime();
        await().atMost(CLOSED_WITHIN).pollInterval(Duration.ofMillis(200)).until(() -> held.stream().allMatch(HostileRequestsTest::closedByServer));
        System.out.printf("%d held-open connections closed by the servers after %.1f s%n", held.size(),
                (System.nanoTime() - started) / 1e9);
        assertThat(get(ports.probes(), "/healthz")).isEqualTo(200);
    }

    @Test
    void pathsMatchExactly(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        Ports ports = start(cluster, namespace);
        assertThat(get(ports.metrics(), "/metrics")).isEqualTo(200);
        assertThat(get(ports.metrics(), "/metricsfoo")).isEqualTo(404);
        assertThat(get(ports.metrics(), "/metrics/x")).isEqualTo(404);
        assertThat(get(ports.probes(), "/healthz")).isEqualTo(200);
        assertThat(get(ports.probes(), "/healthz/ping")).isEqualTo(200);
        assertThat(get(ports.probes(), "/healthzXYZ")).isEqualTo(404);
        assertThat(get(ports.probes(), "/readyzfoo")).isEqualTo(404);
        assertThat(get(ports.probes(), "/")).isEqualTo(404);
    }

    private Socket connect(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        socket.setSoTimeout(100);
        sockets.add(socket);
        return socket;
    }

    /** The server closed it: the read ends (or the connection is reset) rather than timing out. */
    private static boolean closedByServer(Socket socket) {
        try {
            return socket.getInputStream().read() < 0;
        } catch (java.net.SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private SSLSocket tls(int port) throws Exception {
        SSLSocket socket = (SSLSocket) TrustingTls.context().getSocketFactory().createSocket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        sockets.add(socket);
        return socket;
    }

    private static void write(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private static String statusLine(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
            line.append((char) c);
        }
        return line.toString().strip();
    }

    private static int get(int port, String path) throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(5))
                    .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        }
    }
}
