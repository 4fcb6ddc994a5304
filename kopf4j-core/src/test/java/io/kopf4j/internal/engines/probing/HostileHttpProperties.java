package io.kopf4j.internal.engines.probing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.HostileValues;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.runtime.OperatorChecks;
import io.kopf4j.kits.webhooks.WebhookServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.instancio.Random;
import org.instancio.junit.Given;
import org.instancio.junit.GivenProvider;
import org.instancio.junit.InstancioExtension;
import org.instancio.junit.InstancioSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * Whatever bytes a client sends to the servers kopf4j runs (Kopf's liveness endpoint, the health
 * probes, the metrics, the admission webhooks): any method, path, headers and body, framed by length
 * or in chunks. What must hold: each request gets an HTTP answer (or its connection closed, for what
 * is not HTTP), and every server still answers its usual request afterwards.
 */
@ExtendWith(InstancioExtension.class)
class HostileHttpProperties {
    private static Endpoints endpoints;
    private static WebhookServer webhooks;
    private static final AtomicReference<String> WEBHOOK = new AtomicReference<>();

    @BeforeAll
    static void start() throws IOException {
        endpoints = new Endpoints(new Endpoints.Config(URI.create("http://127.0.0.1:0/healthz"), "127.0.0.1:0",
                "127.0.0.1:0", null), new OperatorChecks(), Map::of, new OperatorSettings(), () -> null);
        webhooks = new WebhookServer().addr("127.0.0.1").insecure(true).path("/hooks");
        webhooks.start(null, (review, request) -> Map.of("response", Map.of("uid", String.valueOf(review.get("request")),
                "allowed", true)), config -> WEBHOOK.set(config.url()));
    }

    @AfterAll
    static void stop() {
        endpoints.release(true);
        webhooks.close();
    }

    /** One request as bytes: a request line, headers, and a body framed by its length or in chunks. */
    record Request(String method, String path, List<String> headers, byte[] body, boolean chunked) {
        byte[] bytes() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
            headers.forEach(header -> head.append(header).append("\r\n"));
            head.append(chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + body.length + "\r\n").append("\r\n");
            out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (chunked) {
                if (body.length > 0) {
                    out.writeBytes((Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    out.writeBytes(body);
                    out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
                }
                out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            } else {
                out.writeBytes(body);
            }
            return out.toByteArray();
        }

        @Override
        public String toString() {
            return method + " " + path + " " + headers + " (" + body.length + " bytes" + (chunked ? ", chunked)" : ")");
        }
    }

    /** A request of any method, path (known ones, their neighbours, garbage, 8 KB), headers and body, framed either way. */
    static final class Requests implements GivenProvider {
        private static final List<String> PATHS = List.of("/healthz", "/readyz", "/healthz/ping", "/readyz/x", "/metrics",
                "/metricsfoo", "/healthzXYZ", "/", "/hooks", "/hooks/", "/hooks/check", "/hooks/%2F..%2F", "/hooks/a%00b",
                "//metrics", "/metrics?x=%zz");

        @Override
        public Object provide(ElementContext context) {
            Random random = context.random();
            String method = random.trueOrFalse() ? random.oneOf("GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH")
                    : random.upperCaseAlphabetic(random.intRange(1, 10));
            String path = switch (random.intRange(0, 2)) {
                case 0 -> random.oneOf(PATHS);
                case 1 -> "/" + printable(random, random.intRange(0, 300)).replace(" ", "");
                default -> "/" + random.lowerCaseAlphabetic(8000);
            };
            List<String> headers = new ArrayList<>();
            for (int i = random.intRange(0, 5); i > 0; i--) {
                headers.add("X-" + random.lowerCaseAlphabetic(random.intRange(1, 20)) + ": " + printable(random, random.intRange(0, 200)));
            }
            byte[] body = switch (random.intRange(0, 3)) {
                case 0 -> io.kopf4j.internal.structs.Json.compact(HostileValues.json(random, 3)).getBytes(StandardCharsets.UTF_8);
                case 1 -> bytes(random, random.intRange(0, 2000));
                case 2 -> "{\"request\":".repeat(1200).getBytes(StandardCharsets.UTF_8);
                default -> new byte[random.intRange(1024 * 1024 - 2, 1024 * 1024 + 2)];
            };
            return new Request(method, path, headers, body, random.trueOrFalse());
        }

        private static String printable(Random random, int length) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < length; i++) {
                text.append(random.characterRange(' ', '~'));
            }
            return text.toString();
        }

        private static byte[] bytes(Random random, int length) {
            byte[] bytes = new byte[length];
            for (int i = 0; i < length; i++) {
                bytes[i] = random.byteRange(Byte.MIN_VALUE, Byte.MAX_VALUE);
            }
            return bytes;
        }
    }

    @ParameterizedTest
    @InstancioSource(samples = 120)
    void everyServerAnswersAnyRequestAndGoesOn(@Given(Requests.class) Request request) throws IOException {
        List<Integer> ports = new ArrayList<>(List.of(endpoints.livenessAddress().getPort(), endpoints.healthProbeAddress().getPort(),
                endpoints.metricsAddress().getPort(), URI.create(WEBHOOK.get()).getPort()));
        for (int port : ports) {
            String answer = send(port, request.bytes());
            assertThat(answer).as("the answer of port %d to %s", port, request)
                    .satisfiesAnyOf(text -> assertThat(text).matches("(?s)HTTP/1\\.1 [1-5]\\d\\d .*"),
                            text -> assertThat(text).isEmpty());
            if (!request.path().startsWith("/readyz")) {   // 500 is readiness's "not ready": no operator runs here
                assertThat(answer).as("no server error for %s", request).doesNotStartWith("HTTP/1.1 500");
            }
        }
        assertThat(send(ports.get(1), "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.UTF_8)))
                .startsWith("HTTP/1.1 200");
        assertThat(send(ports.get(2), "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.UTF_8)))
                .startsWith("HTTP/1.1 200");
        assertThat(send(ports.get(0), "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.UTF_8)))
                .startsWith("HTTP/1.1 200");
        assertThat(send(ports.get(3), ("POST /hooks/check HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 13\r\n\r\n"
                + "{\"request\":1}").getBytes(StandardCharsets.UTF_8))).startsWith("HTTP/1.1 200");
    }

    /** The answer's bytes as text, up to its end or 64 KB; empty if the server closed without one. */
    private static String send(int port, byte[] request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setSoTimeout(15_000);
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    OutputStream out = socket.getOutputStream();
                    out.write(request);
                    out.flush();
                } catch (IOException closedEarly) {
                    // The server answered before all was sent (a body refused unread): its answer is read below.
                }
            });
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            try {
                InputStream in = socket.getInputStream();
                byte[] buffer = new byte[8192];
                for (int n = in.read(buffer); n > 0 && answer.size() < 65536; n = in.read(buffer)) {
                    answer.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException | java.net.SocketException endedOrReset) {
                // A reset after the answer (the server closed with the unread body in its buffer) ends it as well.
            }
            try {
                writer.join(15_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return answer.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
