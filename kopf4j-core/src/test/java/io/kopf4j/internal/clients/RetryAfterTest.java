package io.kopf4j.internal.clients;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A 429's Retry-After, however the server sends it: API Priority and Fairness sends only the
 * header (with a text body), older code paths a Status with {@code details.retryAfterSeconds}. As
 * in Kopf, the header wins; a date in it is ignored.
 */
class RetryAfterTest {
    private static final String TEXT = "Too many requests, please try again later.\n";
    private static final String STATUS = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"slow down\","
            + "\"reason\":\"TooManyRequests\",\"details\":{\"retryAfterSeconds\":3},\"code\":429}";

    /** A proxy's error page, longer than Kopf's TEXT_ERROR_MAX_SIZE. */
    private static final String PAGE = "<html><body>" + "Bad gateway. ".repeat(40) + "</body></html>";

    private FakeApiServer server;
    private KubernetesClient client;

    @BeforeEach
    void startTheFakeApiServer() throws IOException {
        server = new FakeApiServer(exchange -> {
            try (exchange) {
                String path = exchange.getRequestURI().getPath();
                String header = Map.of("/header", "7", "/both", "5", "/date", "Wed, 21 Oct 2015 07:28:00 GMT", "/status", "",
                        "/page", "").get(path.replace("/stream", ""));
                byte[] body = (path.startsWith("/header") ? TEXT : path.startsWith("/page") ? PAGE : STATUS).getBytes(UTF_8);
                if (!header.isEmpty()) {
                    exchange.getResponseHeaders().set("Retry-After", header);
                }
                exchange.sendResponseHeaders(429, body.length);
                exchange.getResponseBody().write(body);
            }
        });
        client = server.client();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theHeaderAloneWithATextBodyIsTheRetryAfter() {
        KubernetesClientException failure = failureOf("/header");
        assertThat(failure.getCode()).isEqualTo(429);
        assertThat(failure.getStatus().getMessage()).isEqualTo(TEXT.strip());
        assertThat(failure.getStatus().getDetails().getRetryAfterSeconds()).isEqualTo(7);
        assertThat(new ApiRetries(List.of(), false).delayFor(failure, Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void aLongTextBodyIsCutAsKopfCutsIt() {
        String message = failureOf("/page").getStatus().getMessage();
        assertThat(message).hasSize(ApiRequest.TEXT_ERROR_MAX_SIZE).startsWith("<html><body>Bad gateway. ").endsWith("...");
    }

    @Test
    void theHeaderWinsOverTheStatusAndADateIsIgnored() {
        assertThat(failureOf("/both").getStatus().getDetails().getRetryAfterSeconds()).isEqualTo(5);
        assertThat(failureOf("/date").getStatus().getDetails().getRetryAfterSeconds()).isEqualTo(3);
        assertThat(failureOf("/status").getStatus().getDetails().getRetryAfterSeconds()).isEqualTo(3);
    }

    @Test
    void aThrottledWatchRequestCarriesTheHeadersRetryAfter() throws Exception {
        ApiStream stream = ApiRequest.path(client, "/stream/header").query("watch", "true").stream(line -> { }, unreadable -> { });
        ExecutionException ended = catchThrowableOfType(ExecutionException.class, () -> stream.ended().get(10, TimeUnit.SECONDS));
        KubernetesClientException failure = (KubernetesClientException) ended.getCause();
        assertThat(failure.getCode()).isEqualTo(429);
        assertThat(failure.getStatus().getDetails().getRetryAfterSeconds()).isEqualTo(7);
    }

    private KubernetesClientException failureOf(String path) {
        return catchThrowableOfType(KubernetesClientException.class, () -> ApiRequest.path(client, path).get());
    }
}
