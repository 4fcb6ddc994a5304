package io.kopf4j.internal.engines.conversion;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.WebhookFn;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.intents.ConversionGraph;
import io.kopf4j.internal.intents.ConversionGraph.KindConversions;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.reactor.OperatorServices;
import io.kopf4j.internal.runtime.Engine;
import java.util.function.Consumer;

/**
 * The conversion webhook of a running operator: its {@link ConversionEngine}, which the webhook
 * server of {@code settings.admission.server} serves beside the admission handlers (one server,
 * requests told apart by their review's kind), and, with {@code settings.conversion.managed}, the
 * CRDs' {@code spec.conversion} kept pointing at that server ({@link CrdConversions}). Started before
 * the watches: listing a version stored as another needs the conversions.
 *
 * <pre>{@code
 * ConversionWebhook.verify(registry);                    // right after the startup handlers
 * ConversionWebhook conversions = new ConversionWebhook(services, client);
 * AdmissionWebhooks.start(..., conversions.requests(), conversions::configure);
 * reactor.onRescan(conversions::rescanned);
 * }</pre>
 */
public final class ConversionWebhook implements Engine {
    private final ConversionEngine engine;
    private final CrdConversions crds;
    private final Consumer<OperatorException> failure;

    /**
     * @param services the settings, the handlers, and where a failure to manage the CRDs goes (the operator stops)
     * @param client the operator's client, for the CRDs
     */
    public ConversionWebhook(OperatorServices services, KubernetesClient client) {
        ConversionGraph graph = ConversionGraph.of(services.registry().conversions());
        OperatorSettings settings = services.settings();
        this.engine = graph.isEmpty() ? null : new ConversionEngine(graph);
        this.crds = engine != null && settings.conversion.managed
                ? new CrdConversions(graph.kinds().stream().map(KindConversions::crdName).toList(), client,
                        ApiRetries.of(settings))
                : null;
        this.failure = services.failure();
    }

    /**
     * The check after the startup handlers, before the login, so that the start fails at once: the
     * conversions are hub and spoke.
     *
     * @throws io.kopf4j.InvalidHandlerException if the conversions are not hub and spoke
     */
    public static void verify(HandlerRegistry registry) {
        ConversionGraph.of(registry.conversions());
    }

    /** {@return what answers ConversionReviews, or null without conversions} */
    public WebhookFn requests() {
        return engine;
    }

    /** Points the CRDs at the server's new client config (published at its start and when its certificate changes). */
    public void configure(WebhookClientConfig config) {
        if (crds != null) {
            manage(() -> crds.configure(config));
        }
    }

    /** Sets the CRDs' conversion again after a rescan: a CRD appeared, or was applied again without it. */
    public void rescanned() {
        if (crds != null) {
            manage(crds::refresh);
        }
    }

    private void manage(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            failure.accept(new OperatorException("The CRDs' conversion webhooks cannot be managed: " + e.getMessage(), e));
        }
    }

    @Override
    public boolean servesApiServer() {
        return true;
    }
}
