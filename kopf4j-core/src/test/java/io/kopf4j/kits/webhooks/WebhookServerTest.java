package io.kopf4j.kits.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.WebhookClientConfig;
import io.kopf4j.WebhookError;
import io.kopf4j.WebhookRequest;
import java.io.IOException;
import java.net.BindException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class WebhookServerTest {
    @RegisterExtension
    final StartedServers servers = new StartedServers((review, request) -> switch (String.valueOf(review.get("fail"))) {
        case "400" -> throw WebhookError.missingData("User info is missing.");
        case "404" -> throw WebhookError.unknownResource("No handlers for kopfexamples.");
        case "409" -> throw WebhookError.ambiguousResource("Too many kopfexamples.");
        case "blank" -> throw WebhookError.unknownResource("");
        default -> Map.of("apiVersion", "admission.k8s.io/v1", "kind", "AdmissionReview",
                "response", Map.of("uid", "123", "allowed", true, "webhook", String.valueOf(request.webhook())));
    });
    private final List<WebhookRequest> requests = servers.requests;

    private WebhookClientConfig start(WebhookServer server) throws IOException {
        return servers.start(server);
    }

    @Test
    void servesAdmissionRequestsOverHttpsWithTheGeneratedCertificate() throws Exception {
        WebhookClientConfig config = start(new WebhookServer().addr("127.0.0.1").path("/hooks/"));

        assertThat(config.url()).matches("https://127\\.0\\.0\\.1:\\d+/hooks/");
        assertThat(config.caBundle()).isNotNull();
        HttpResponse<String> response = WebhookClients.post(WebhookClients.trusting(config),
                config.url() + "validate%20it", "{\"request\": {\"uid\": \"123\"}}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(response.body()).contains("\"allowed\":true").contains("\"webhook\":\"validate it\"");
        assertThat(servers.reviews).containsExactly(Map.of("request", Map.of("uid", "123")));
        WebhookRequest request = requests.getFirst();
        assertThat(request.webhook()).isEqualTo("validate it");
        assertThat(request.headers()).containsEntry("X-kopf4j-test", "yes");
        assertThat(request.sslpeer()).isEmpty();
    }

    @Test
    void aRequestWithoutAnIdAddressesEveryHandler() throws Exception {
        WebhookClientConfig config = start(new WebhookServer().addr("127.0.0.1"));

        HttpResponse<String> response = WebhookClients.post(WebhookClients.trusting(config), config.url() + "/", "{}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(requests).singleElement().extracting(WebhookRequest::webhook).isNull();
    }

    @Test
    void malformedRequestsAreAnsweredWithTheirHttpStatus() throws Exception {
        WebhookClientConfig config = start(new WebhookServer().addr("127.0.0.1"));
        HttpClient client = WebhookClients.trusting(config);

        HttpResponse<String> badJson = WebhookClients.post(client, config.url() + "/hook", "{not json");
        HttpResponse<String> notAnObject = WebhookClients.post(client, config.url() + "/hook", "[1]");
        HttpResponse<String> missing = WebhookClients.post(client, config.url() + "/hook", "{\"fail\": 400}");
        HttpResponse<String> unknown = WebhookClients.post(client, config.url() + "/hook", "{\"fail\": 404}");
        HttpResponse<String> ambiguous = WebhookClients.post(client, config.url() + "/hook", "{\"fail\": 409}");
        HttpResponse<String> unexplained = WebhookClients.post(client, config.url() + "/hook", "{\"fail\": \"blank\"}");

        assertThat(badJson.statusCode()).isEqualTo(400);
        assertThat(notAnObject.statusCode()).isEqualTo(400);
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(missing.body()).isEqualTo("400: User info is missing.");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).isEqualTo("404: No handlers for kopfexamples.");
        assertThat(ambiguous.statusCode()).isEqualTo(409);
        assertThat(ambiguous.body()).isEqualTo("409: Too many kopfexamples.");
        assertThat(unexplained.statusCode()).isEqualTo(404);
        assertThat(unexplained.body()).isEqualTo("404: Not Found");
        assertThat(servers.reviews).hasSize(4);
    }

    @Test
    void requestsOutsideTheRootPathAreNotServed() throws Exception {
        WebhookClientConfig config = start(new WebhookServer().addr("127.0.0.1").path("/hooks"));

        HttpResponse<String> response = WebhookClients.post(WebhookClients.trusting(config),
                config.url().replace("/hooks", "/other/hook"), "{}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(requests).isEmpty();
    }

    @Test
    void isReadyOnlyWhileListening() throws Exception {
        WebhookServer server = new WebhookServer().addr("127.0.0.1");
        assertThat(server.ready()).isFalse();

        WebhookClientConfig config = start(server);
        assertThat(server.ready()).isTrue();

        server.close();
        assertThat(server.ready()).isFalse();
        assertThatThrownBy(() -> WebhookClients.post(WebhookClients.trusting(config), config.url() + "/hook", "{}"))
                .isInstanceOf(IOException.class);
    }

    @Test
    void aTakenPortIsOneClearError() throws Exception {
        WebhookClientConfig config = start(new WebhookServer().addr("127.0.0.1"));
        int port = URI.create(config.url()).getPort();
        WebhookServer second = new WebhookServer().addr("127.0.0.1").port(port);

        assertThatThrownBy(() -> start(second)).isInstanceOf(BindException.class)
                .hasMessageStartingWith("Cannot listen for webhooks at /127.0.0.1:" + port + ": ");
        assertThat(second.ready()).isFalse();
    }

    @Test
    void listensOnAllInterfacesByDefaultAndPublishesLocalhost() throws Exception {
        WebhookClientConfig config = start(new WebhookServer());

        assertThat(config.url()).matches("https://localhost:\\d+");
        assertThat(WebhookClients.post(WebhookClients.trusting(config), config.url() + "/hook", "{}").statusCode())
                .isEqualTo(200);
    }

    @Test
    void servesPlainHttpOnlyWhenInsecure() throws Exception {
        WebhookClientConfig config = start(new WebhookServer().addr("127.0.0.1").insecure(true));

        assertThat(config.url()).startsWith("http://127.0.0.1:");
        assertThat(config.caBundle()).isNull();
        HttpResponse<String> response = WebhookClients.post(WebhookClients.plain(), config.url() + "/hook", "{}");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(requests).singleElement().extracting(WebhookRequest::webhook).isEqualTo("hook");
    }

    @Test
    void dumpsThePublishedCaBundle(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("ca.pem");
        WebhookClientConfig config = start(new WebhookServer().addr("127.0.0.1").cadump(dump));

        assertThat(Files.readString(dump))
                .startsWith("-----BEGIN CERTIFICATE-----")
                .isEqualTo(new String(Base64.getDecoder().decode(config.caBundle()), StandardCharsets.US_ASCII));
    }
}
