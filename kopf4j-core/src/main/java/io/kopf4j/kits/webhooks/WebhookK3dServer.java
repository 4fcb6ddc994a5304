package io.kopf4j.kits.webhooks;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A local server for a k3d or k3s cluster on this machine (Kopf's {@code WebhookK3dServer}): the
 * cluster reaches it at {@code host.k3d.internal}, which k3d or k3s forwards to this machine, so webhooks
 * can be developed fully offline. The generated certificate names that host.
 *
 * <pre>{@code
 * settings.admission.server = new WebhookK3dServer().port(9443);
 * }</pre>
 */
public class WebhookK3dServer extends WebhookServer {
    /** Listens on all interfaces (the cluster's traffic arrives through the host's bridge), a free port. */
    public WebhookK3dServer() {
    }

    @Override
    protected String defaultHost(KubernetesClient client) {
        return ClusterDetector.K3D_HOST;
    }
}
