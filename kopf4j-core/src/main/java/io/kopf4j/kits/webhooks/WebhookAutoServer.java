package io.kopf4j.kits.webhooks;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local server that guesses the host name through which the cluster reaches this machine
 * (Kopf's {@code WebhookAutoServer}): {@code host.k3d.internal} for k3d/k3s,
 * {@code host.minikube.internal} for minikube, {@code host.docker.internal} for Docker Desktop,
 * {@code 127.0.0.1} for an API server that runs on this machine; otherwise the listening address,
 * as a plain {@link WebhookServer}. The guess comes from the API server's certificate, its version
 * and its address in the client's configuration.
 *
 * <pre>{@code
 * settings.admission.server = new WebhookAutoServer();
 * settings.admission.managed = "auto.kopf.dev";
 * }</pre>
 */
public class WebhookAutoServer extends WebhookServer {
    private static final Logger LOGGER = LoggerFactory.getLogger(WebhookAutoServer.class);

    /** Listens on all interfaces (so that a cluster in containers reaches it too), a free port. */
    public WebhookAutoServer() {
    }

    @Override
    protected String defaultHost(KubernetesClient client) {
        String host = ClusterDetector.guessHost(ApiServerFacts.read(client));
        if (host == null) {
            LOGGER.debug("Cluster detection failed, running a simple local server.");
        } else {
            LOGGER.debug("Cluster detection found the hostname: {}", host);
        }
        return host;
    }
}
