package io.kopf4j.kits.webhooks;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A local server for a Docker Desktop cluster on this machine (Kopf's {@code WebhookDockerDesktopServer}): the
 * cluster reaches it at {@code host.docker.internal}, which Docker Desktop forwards to this machine, so webhooks
 * can be developed fully offline. The generated certificate names that host.
 *
 * <pre>{@code
 * settings.admission.server = new WebhookDockerDesktopServer().port(9443);
 * }</pre>
 */
public class WebhookDockerDesktopServer extends WebhookServer {
    /** Listens on all interfaces (the cluster's traffic arrives through the host's bridge), a free port. */
    public WebhookDockerDesktopServer() {
    }

    @Override
    protected String defaultHost(KubernetesClient client) {
        return ClusterDetector.DOCKER_DESKTOP_HOST;
    }
}
