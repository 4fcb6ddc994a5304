package io.kopf4j.kits.webhooks;

import io.kopf4j.OperatorException;
import io.kopf4j.WebhookServing;
import io.kopf4j.internal.runtime.PodEnvironment;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook server kopf4j serves admission and conversion webhooks with when
 * {@code settings.admission.server} is not set (Kopf has no default and fails the start): in a pod,
 * a {@link WebhookServer} on port {@value #IN_POD_PORT} published as the host of the Service in
 * front of it, which {@code kopf4j manifests} generates and names to the pod in
 * {@code $KOPF4J_WEBHOOK_HOST}; anywhere else (tests, {@code kopf4j run} on a laptop), a
 * {@link WebhookAutoServer}, which the local cluster reaches. Setting
 * {@code settings.admission.server} overrides the choice; this is the same choice, as a value:
 *
 * <pre>{@code
 * @On.Startup
 * public void configure(OperatorSettings settings) {
 *     settings.admission.server = WebhookServerChoice.automatic();   // what kopf4j does without a server
 *     settings.admission.managed = "auto.kopf.dev";
 * }
 * }</pre>
 */
public final class WebhookServerChoice {
    private static final Logger LOGGER = LoggerFactory.getLogger(WebhookServerChoice.class);
    /** The port of the server in a pod, which the generated Deployment and Service name. */
    public static final int IN_POD_PORT = 9443;
    /** The variable that gives a pod its Service's host, e.g. {@code my-operator.operators.svc}. */
    public static final String HOST_VARIABLE = "KOPF4J_WEBHOOK_HOST";

    private WebhookServerChoice() {
    }

    /**
     * {@return the server for where this process runs}
     *
     * @throws OperatorException in a pod without {@code $KOPF4J_WEBHOOK_HOST}: nothing else says
     *         which Service the API server reaches the pod through
     */
    public static WebhookServing automatic() {
        WebhookServing server = choose(PodEnvironment.inPod(), System.getenv());
        if (server instanceof WebhookAutoServer) {
            LOGGER.info("Webhooks are served by a WebhookAutoServer (not in a pod; settings.admission.server to choose).");
        } else if (server instanceof WebhookServer inPod) {
            LOGGER.info("Webhooks are served on port {} as {} (in a pod; settings.admission.server to choose).",
                    inPod.port(), inPod.host());
        }
        return server;
    }

    static WebhookServing choose(boolean inPod, Map<String, String> environment) {
        if (!inPod) {
            return new WebhookAutoServer();
        }
        String host = environment.get(HOST_VARIABLE);
        if (host == null || host.isBlank()) {
            throw new OperatorException("In a pod, the webhook server is published as the host of the Service in front"
                    + " of it: set $" + HOST_VARIABLE + " to NAME.NAMESPACE.svc (the Deployment of kopf4j manifests does),"
                    + " or settings.admission.server");
        }
        return new WebhookServer().port(IN_POD_PORT).host(host.strip());
    }
}
