package io.kopf4j;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * Where the API server sends admission requests: a local server or a tunnel (Kopf's webhook
 * server protocol), set as {@code settings.admission.server}.
 *
 * <pre>{@code
 * @On.Startup
 * public void configure(OperatorSettings settings) {
 *     settings.admission.server = new WebhookServer().port(9443);  // or new WebhookAutoServer()
 *     settings.admission.managed = "auto.kopf.dev";
 * }
 * }</pre>
 *
 * <p>kopf4j starts it after the startup handlers and the resources' discovery, passes every
 * request it receives to the admission engine through {@code requests}, and closes it on exit. A
 * custom implementation reads the request's JSON, calls {@link WebhookFn#serve}, answers with the
 * returned map as JSON (HTTP 200), and answers a {@link WebhookError} with its
 * {@link WebhookError#httpStatus()}.
 */
public interface WebhookServing extends AutoCloseable {
    /**
     * Starts accepting requests and returns once it can; publishes how the API server reaches it.
     *
     * @param client the operator's client, for servers that look at the cluster to choose the
     *               address it can reach ({@code WebhookAutoServer}); others ignore it
     * @param requests serves one admission review; called on any thread, concurrently
     * @param configs told the client config at start, and again whenever it changes (a renewed
     *                certificate, a new tunnel address); the managed webhook configurations follow it
     * @throws IOException when it cannot listen (the operator fails to start with this message)
     */
    void start(KubernetesClient client, WebhookFn requests, Consumer<WebhookClientConfig> configs) throws IOException;

    /** {@return whether it accepts requests now with its certificate loaded: the {@code webhook-server} readiness check} */
    boolean ready();

    /** Stops accepting requests. Idempotent. */
    @Override
    void close();
}
