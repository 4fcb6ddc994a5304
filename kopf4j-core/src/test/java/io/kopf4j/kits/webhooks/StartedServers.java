package io.kopf4j.kits.webhooks;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.WebhookFn;
import io.kopf4j.WebhookRequest;
import io.kopf4j.WebhookServing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Webhook servers started in a test, closed after it; what they published, and the requests their
 * stand-in engine received (it allows everything unless told otherwise).
 */
final class StartedServers implements AfterEachCallback {
    final List<WebhookClientConfig> configs = new CopyOnWriteArrayList<>();
    final List<WebhookRequest> requests = new CopyOnWriteArrayList<>();
    final List<Map<String, Object>> reviews = new CopyOnWriteArrayList<>();
    private final List<WebhookServing> servers = new ArrayList<>();
    private final WebhookFn answers;

    StartedServers() {
        this((review, request) -> Map.of("response", Map.of("allowed", true)));
    }

    StartedServers(WebhookFn answers) {
        this.answers = answers;
    }

    /** Starts the server with a recording engine and no cluster; returns the config it published. */
    WebhookClientConfig start(WebhookServing server) throws IOException {
        return start(server, null);
    }

    /** Starts the server with a recording engine; returns the config it published. */
    WebhookClientConfig start(WebhookServing server, KubernetesClient client) throws IOException {
        servers.add(server);
        server.start(client, (review, request) -> {
            requests.add(request);
            reviews.add(review);
            return answers.serve(review, request);
        }, configs::add);
        return configs.getLast();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        servers.forEach(WebhookServing::close);
    }
}
