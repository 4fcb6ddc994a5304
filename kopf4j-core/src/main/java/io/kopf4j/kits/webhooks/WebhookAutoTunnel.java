package io.kopf4j.kits.webhooks;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.WebhookFn;
import java.io.IOException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link WebhookAutoServer} when the cluster is recognised, else a {@link WebhookNgrokTunnel}
 * (Kopf's {@code WebhookAutoTunnel}): the most universal choice, but it may open a public tunnel,
 * so it must be chosen explicitly. The options are the ngrok tunnel's; a recognised cluster gets an
 * HTTPS server with a generated certificate on the same {@code addr}, {@code port} and {@code path}.
 *
 * <pre>{@code
 * settings.admission.server = new WebhookAutoTunnel().path("/some-random-path");
 * }</pre>
 */
public class WebhookAutoTunnel extends WebhookNgrokTunnel {
    private static final Logger LOGGER = LoggerFactory.getLogger(WebhookAutoTunnel.class);

    private volatile boolean direct;

    /** On all interfaces, a free port, no root path. */
    public WebhookAutoTunnel() {
    }

    @Override
    public void start(KubernetesClient client, WebhookFn requests, Consumer<WebhookClientConfig> configs) throws IOException {
        String host = ClusterDetector.guessHost(ApiServerFacts.read(client));
        if (host == null) {
            LOGGER.debug("Cluster detection failed, using an ngrok tunnel.");
            super.start(client, requests, configs);
        } else {
            LOGGER.debug("Cluster detection found the hostname: {}", host);
            direct = true;
            localServer().insecure(false).host(host).start(client, requests, configs);
        }
    }

    @Override
    public boolean ready() {
        return direct ? localServer().ready() : super.ready();
    }
}
