package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Handler;
import io.kopf4j.Operator;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** /metrics in Prometheus' format: the values move as objects are handled. */
@ExtendWith(LocalClusterExtension.class)
class MetricsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static double value(String metrics, String series) {
        Matcher matcher = Pattern.compile("^" + Pattern.quote(series) + " ([0-9.Ee+-]+)$", Pattern.MULTILINE).matcher(metrics);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
    }

    @Test
    void metricsFollowTheHandling(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (Operator operator = fixture.start(fixture.operator()
                .handler(Handler.create("kopfexamples").id("create").backoff(Duration.ofMinutes(10)).handle(context -> {
                    if (context.name().equals("bad")) {
                        throw new IllegalStateException("bad object");
                    }
                    return "created";
                }))
                .metricsAddress("127.0.0.1:0"))) {
            URI uri = URI.create("http://127.0.0.1:" + operator.metricsAddress().getPort() + "/metrics");
            for (int i = 0; i < 3; i++) {
                examples.create("ex-" + i, Map.of("i", i));
            }
            examples.create("bad", Map.of("i", 9));
            String resource = "kopfexamples.v1.kopf.dev";
            await().atMost(WAIT).untilAsserted(() -> {
                String metrics = HTTP.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();
                assertThat(value(metrics, "kopf4j_handler_invocations_total{handler=\"create\",outcome=\"success\"}")).isEqualTo(3);
                assertThat(value(metrics, "kopf4j_handler_invocations_total{handler=\"create\",outcome=\"exception\"}")).isEqualTo(1);
                assertThat(value(metrics, "kopf4j_handler_duration_seconds_count{handler=\"create\"}")).isEqualTo(4);
                assertThat(value(metrics, "kopf4j_watch_events_total{resource=\"" + resource + "\",type=\"ADDED\"}")).isGreaterThanOrEqualTo(4);
                assertThat(value(metrics, "kopf4j_api_requests_seconds_count{code=\"200\",verb=\"PATCH\"}")).isGreaterThanOrEqualTo(6);
                assertThat(value(metrics, "kopf4j_api_requests_seconds_count{code=\"200\",verb=\"LIST\"}")).isGreaterThanOrEqualTo(1);
                assertThat(value(metrics, "kopf4j_queue_wait_seconds_count{resource=\"" + resource + "\"}")).isGreaterThanOrEqualTo(4);
                assertThat(value(metrics, "kopf4j_objects")).isEqualTo(4);
                assertThat(metrics).contains("kopf4j_queue_depth ");
            });
        }
    }
}
