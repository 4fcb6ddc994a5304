package io.kopf4j.cli;

import io.kopf4j.OperatorException;
import io.kopf4j.WebhookServing;
import io.kopf4j.kits.webhooks.WebhookAutoServer;
import io.kopf4j.kits.webhooks.WebhookDockerDesktopServer;
import io.kopf4j.kits.webhooks.WebhookK3dServer;
import io.kopf4j.kits.webhooks.WebhookMinikubeServer;
import io.kopf4j.kits.webhooks.WebhookNgrokTunnel;
import io.kopf4j.kits.webhooks.WebhookServer;
import io.kopf4j.kits.webhooks.WebhookServerChoice;
import java.io.PrintWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether {@code kopf4j manifests} puts a Service in front of the operator's webhook server, and
 * at which port: for kopf4j's own choice when no server is set ({@link WebhookServerChoice}: port
 * {@value WebhookServerChoice#IN_POD_PORT}, published as the Service's host), and for a
 * {@link WebhookServer} with a fixed port (the one in the URL it publishes, so the Service serves
 * that same port); the servers and tunnels for development get none, with a warning, and a host
 * other than the Service's DNS name gets a warning too.
 *
 * <pre>{@code
 * // settings.admission.server = new WebhookServer().port(9443).host("op.ops.svc")
 * Integer port = WebhookService.port(settings.admission.server, true, "op", "ops", err);   // 9443
 * }</pre>
 */
final class WebhookService {
    private static final List<Class<? extends WebhookServing>> DEVELOPMENT = List.of(WebhookAutoServer.class,
            WebhookK3dServer.class, WebhookMinikubeServer.class, WebhookDockerDesktopServer.class, WebhookNgrokTunnel.class);

    private WebhookService() {
    }

    /**
     * The namespace that the server's host names as the Service's: {@code ops} of {@code op.ops.svc}
     * (or {@code op.ops.svc.cluster.local}) for the Service {@code op}. A Helm chart is installed into a
     * namespace of the user's choice: its Service must be in this one.
     *
     * @param server the operator's {@code settings.admission.server}, or null
     * @param name the Service's name
     * @return the namespace, or null if the host is not the Service's DNS name (or there is no such server)
     */
    static String hostNamespace(WebhookServing server, String name) {
        if (server instanceof WebhookServer webhookServer && webhookServer.host() != null) {
            Matcher host = Pattern.compile(Pattern.quote(name)
                    + "\\.([a-z0-9]([-a-z0-9]*[a-z0-9])?)\\.svc(\\.cluster\\.local)?").matcher(webhookServer.host());
            if (host.matches()) {
                return host.group(1);
            }
        }
        return null;
    }

    /**
     * The Service's port, or null for no Service.
     *
     * @param server the operator's {@code settings.admission.server}, or null
     * @param needed whether the operator serves webhooks (admission handlers, conversions)
     * @param name the Service's name (as the other objects')
     * @param namespace the operator's namespace
     * @param err where the warnings go
     * @return the webhook server's port, or null
     * @throws OperatorException when the server's port is not fixed
     */
    static Integer port(WebhookServing server, boolean needed, String name, String namespace, PrintWriter err) {
        String dnsName = name + "." + namespace + ".svc";
        if (server == null) {
            // kopf4j's own choice in a pod: this port, published as the Service's host ($KOPF4J_WEBHOOK_HOST).
            return needed ? WebhookServerChoice.IN_POD_PORT : null;
        }
        if (server != null && DEVELOPMENT.stream().anyMatch(type -> type.isInstance(server))) {
            err.println("kopf4j: warning: settings.admission.server is a development server (" + server.getClass().getSimpleName()
                    + "), so no Service is generated for it; in a cluster, a WebhookServer with a fixed port and host(\""
                    + dnsName + "\") is served by the generated Service");
            return null;
        }
        if (!(server instanceof WebhookServer webhookServer)) {
            return null;   // a server of the operator's own: what reaches it is the operator's to say
        }
        if (webhookServer.port() == null) {
            throw new OperatorException("settings.admission.server: a fixed port is needed for the Service in front of it,"
                    + " e.g. new WebhookServer().port(9443).host(\"" + dnsName + "\")");
        }
        String host = webhookServer.host();
        if (!dnsName.equals(host) && !(dnsName + ".cluster.local").equals(host)) {
            err.println("kopf4j: warning: settings.admission.server's host is " + (host == null ? "not set" : host)
                    + ": for the API server to reach the generated Service, it should be host(\"" + dnsName + "\")");
        }
        return webhookServer.port();
    }
}
