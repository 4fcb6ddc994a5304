package io.kopf4j.kits.webhooks;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A local server for a minikube cluster on this machine (Kopf's {@code WebhookMinikubeServer}): the
 * cluster reaches it at {@code host.minikube.internal}, which minikube forwards to this machine, so webhooks
 * can be developed fully offline. The generated certificate names that host.
 *
 * <pre>{@code
 * settings.admission.server = new WebhookMinikubeServer().port(9443);
 * }</pre>
 */
public class WebhookMinikubeServer extends WebhookServer {
    /** Listens on all interfaces (the cluster's traffic arrives through the host's bridge), a free port. */
    public WebhookMinikubeServer() {
    }

    @Override
    protected String defaultHost(KubernetesClient client) {
        return ClusterDetector.MINIKUBE_HOST;
    }
}
