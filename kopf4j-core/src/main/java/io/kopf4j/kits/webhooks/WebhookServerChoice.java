package io.kopf4j.kits.webhooks;

import io.kopf4j.WebhookServing;
import io.kopf4j.internal.runtime.PodEnvironment;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook server kopf4j serves admission and conversion webhooks with when
 * {@code settings.admission.server} is not set (Kopf has no default and fails the start). Where
 * {@code $KOPF4J_WEBHOOK_HOST} names the host of a Service in front of the operator (the Deployment
 * of {@code kopf4j manifests} and its Helm chart set it), a {@link WebhookServer} on port
 * {@value #IN_POD_PORT} published as that host; anywhere else (tests, {@code kopf4j run} on a
 * laptop, a CI runner that happens to be a pod), a {@link WebhookAutoServer}, which a local cluster
 * reaches. Setting {@code settings.admission.server} overrides the choice.
 *
 * <pre>{@code
 * WebhookServing server = WebhookServerChoice.automatic();   // what kopf4j serves with when none is set
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

    /** {@return the server for where this process runs, the choice logged (and warned of in a pod without a Service's host)} */
    public static WebhookServing automatic() {
        WebhookServing server = choose(System.getenv());
        if (server instanceof WebhookAutoServer) {
            LOGGER.info("Webhooks are served by a WebhookAutoServer (no ${}; settings.admission.server to choose).",
                    HOST_VARIABLE);
            if (PodEnvironment.inPod()) {
                LOGGER.warn("In a pod without ${}, the webhooks are served by a WebhookAutoServer, which a cluster reaches"
                        + " only at an address it guesses; kopf4j manifests' Deployment sets it to its Service's host.",
                        HOST_VARIABLE);
            }
        } else if (server instanceof WebhookServer behindAService) {
            LOGGER.info("Webhooks are served on port {} as {} (${}; settings.admission.server to choose).",
                    behindAService.port(), behindAService.host(), HOST_VARIABLE);
        }
        return server;
    }

    static WebhookServing choose(Map<String, String> environment) {
        String host = environment.get(HOST_VARIABLE);
        if (host == null || host.isBlank()) {
            return new WebhookAutoServer();
        }
        try {
            return new WebhookServer().port(IN_POD_PORT).host(host.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid $" + HOST_VARIABLE + ": " + e.getMessage(), e);
        }
    }
}
