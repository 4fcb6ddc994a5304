package io.kopf4j.internal.engines.admission;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.WebhookError;
import io.kopf4j.WebhookFn;
import io.kopf4j.WebhookServing;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.clients.Discovery;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.ResourceSelector;
import io.kopf4j.internal.intents.WebhookType;
import io.kopf4j.internal.reactor.OperatorServices;
import io.kopf4j.internal.runtime.Engine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission webhooks of a running operator (Kopf's {@code admission_webhook_server} and its two
 * configuration managers): the webhook server of {@code settings.admission.server} started with the
 * {@link AdmissionEngine}, and, with {@code settings.admission.managed}, the Validating- and
 * MutatingWebhookConfiguration following the server's client configs. Started after the startup
 * handlers and the resources' discovery; closed on exit, which keeps only persistent webhooks.
 *
 * <pre>{@code
 * AdmissionWebhooks webhooks = AdmissionWebhooks.start(services, client, execution, reactor::recallMemo,
 *         reactor::onRescan, conversions.requests(), conversions::configure);   // readiness: webhook-server
 * ...
 * webhooks.stopTakingWork();    // the server closes; the managed configurations keep only persistent webhooks
 * }</pre>
 */
public final class AdmissionWebhooks implements Engine, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdmissionWebhooks.class);
    private final WebhookServing server;
    private final List<ConfigurationManager> managers;
    private final Consumer<WebhookClientConfig> otherConfigs;
    private final HandlerRegistry registry;
    private final KubernetesClient client;
    private final Consumer<OperatorException> failure;
    /** Kopf's {@code webhook_resources}: replaced whole when a rescan finds others. */
    private final AtomicReference<Collection<Resource>> resources = new AtomicReference<>(List.of());

    private AdmissionWebhooks(WebhookServing server, List<ConfigurationManager> managers,
                              Consumer<WebhookClientConfig> otherConfigs, HandlerRegistry registry, KubernetesClient client,
                              Consumer<OperatorException> failure) {
        this.server = server;
        this.managers = managers;
        this.otherConfigs = otherConfigs;
        this.registry = registry;
        this.client = client;
        this.failure = failure;
    }

    /**
     * Starts the webhook server, if one is configured, and manages the configurations, if asked to.
     *
     * @param services the settings, the handlers, the checks ({@code webhook-server} is added, ready
     *        once the server listens with its certificate), and where a failure to manage the
     *        configurations goes (the operator stops, as Kopf's does)
     * @param client the operator's client: discovery, the configurations, and the server's own look at the cluster
     * @param execution how handlers run
     * @param memos the objects' memos
     * @param rescans subscribes to the rescans of the watched resources, which the webhooks follow
     * @param conversions what answers the ConversionReviews that come to the same server (kopf4j's
     *        conversion webhook), or null for none
     * @param otherConfigs told the server's client configs too (the CRDs' conversion webhooks)
     * @return the running webhooks, to stop on exit; with no server, nothing runs
     * @throws OperatorException if the server cannot start
     */
    public static AdmissionWebhooks start(OperatorServices services, KubernetesClient client, Execution execution,
                                          MemoRecall memos, Consumer<Runnable> rescans, WebhookFn conversions,
                                          Consumer<WebhookClientConfig> otherConfigs) {
        OperatorSettings settings = services.settings();
        HandlerRegistry registry = services.registry();
        WebhookServing server = settings.admission.server;
        List<ConfigurationManager> managers = new ArrayList<>();
        AdmissionWebhooks webhooks = new AdmissionWebhooks(server, managers, otherConfigs, registry, client,
                services.failure());
        if (server == null) {
            return webhooks;
        }
        services.checks().readiness("webhook-server", () -> {
            if (!webhooks.ready()) {
                throw new IllegalStateException("the webhook server is not listening with its certificate yet");
            }
        });
        webhooks.resources.set(resolve(registry, client, true));
        ApiRetries retries = ApiRetries.of(settings);
        for (WebhookType type : WebhookType.managed(settings, registry)) {
            managers.add(new ConfigurationManager(type, settings.admission.managed, registry.webhookHandlers(),
                    webhooks.resources::get, client, retries));
        }
        try {
            WebhookFn admission = new AdmissionEngine(registry, webhooks.resources::get, execution, memos);
            server.start(client, shared(admission, conversions), webhooks::reconfigure);
        } catch (IOException e) {
            throw new OperatorException("The admission webhook server cannot start: " + e.getMessage(), e);
        }
        rescans.accept(webhooks::rescanned);
        return webhooks;
    }

    /**
     * One server for both: the conversions take {@code {path}/convert/...}, where the server reads
     * larger bodies (a ConversionReview carries a whole list), and only ConversionReviews come there;
     * the admission handlers take the rest.
     */
    static WebhookFn shared(WebhookFn admission, WebhookFn conversions) {
        return (review, request) -> {
            String webhook = request.webhook();
            if (webhook == null || !webhook.startsWith(WebhookClientConfig.CONVERSION_PATH + "/")) {
                return admission.serve(review, request);
            }
            if (conversions == null) {
                throw WebhookError.unknownResource("This operator converts no resources.");
            }
            if (!"ConversionReview".equals(review.get("kind"))) {
                throw WebhookError.missingData("Only ConversionReviews are taken under /"
                        + WebhookClientConfig.CONVERSION_PATH + "/.");
            }
            return conversions.serve(review, request);
        };
    }

    /**
     * Kopf's {@code webhook_resources}: what the admission handlers' selectors resolve to; ambiguity is
     * no problem here (requests are matched passively).
     *
     * @param startup warn of selectors that resolve to nothing (later rescans do not repeat it)
     */
    public static Collection<Resource> resolve(HandlerRegistry registry, KubernetesClient client, boolean startup) {
        Set<ResourceSelector> selectors = registry.webhookSelectors();
        List<Resource> discovered = new Discovery(client).resources(ResourceSelector.groupsToDiscover(selectors));
        Set<Resource> resolved = new LinkedHashSet<>();
        for (ResourceSelector selector : selectors) {
            List<Resource> found = selector.resolve(discovered).resources();
            if (found.isEmpty() && startup) {
                LOG.warn("Unresolved resource '{}' of admission handlers: served once its CRD appears",
                        selector);
            }
            resolved.addAll(found);
        }
        return List.copyOf(resolved);
    }

    /** {@return whether the server accepts requests with its certificate loaded; true without a server} */
    public boolean ready() {
        return server == null || server.ready();
    }

    /**
     * Follows the resources after the reactor rescanned them (a CRD appeared, changed or vanished):
     * requests for new resources are served, and the managed configurations get their rules, as
     * Kopf's configuration managers wake up on the insights' changes.
     */
    public void rescanned() {
        if (server == null || registry.webhookSelectors().isEmpty()) {
            return;
        }
        try {
            Collection<Resource> found = resolve(registry, client, false);
            if (!found.equals(resources.getAndSet(found))) {
                managers.forEach(ConfigurationManager::refresh);
            }
        } catch (RuntimeException e) {
            failure.accept(new OperatorException("The webhook configurations cannot be managed: " + e.getMessage(), e));
        }
    }

    private void reconfigure(WebhookClientConfig config) {
        otherConfigs.accept(config);
        try {
            managers.forEach(manager -> manager.configure(config));
        } catch (RuntimeException e) {
            failure.accept(new OperatorException("The webhook configurations cannot be managed: " + e.getMessage(), e));
        }
    }

    /** At the stop: no admission request is taken any more (see {@link #close()}). */
    @Override
    public void stopTakingWork() {
        close();
    }

    @Override
    public boolean servesApiServer() {
        return true;
    }

    /** Stops the server, then reduces the managed configurations to the persistent webhooks. */
    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        for (ConfigurationManager manager : managers) {
            try {
                manager.cleanup();
            } catch (RuntimeException e) {
                LOG.error("The webhook configuration cannot be cleaned up: {}", e.getMessage());
            }
        }
    }
}
