package io.kopf4j.internal.engines.admission;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.Resource;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.internal.clients.ApiRequest;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.intents.WebhookHandler;
import io.kopf4j.internal.intents.WebhookType;
import io.kopf4j.internal.structs.Json;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one managed webhook configuration (Kopf's {@code configuration_manager}): creates it if
 * absent (trying, not checking, for fewer RBAC permissions), rewrites its {@code webhooks} whenever
 * the webhook server publishes a new client config, and on a graceful exit keeps only the
 * persistent handlers' webhooks.
 *
 * <pre>{@code
 * ConfigurationManager validating = new ConfigurationManager(WebhookType.VALIDATING, "auto.kopf.dev",
 *         handlers, () -> resources, client, retries);
 * validating.configure(WebhookClientConfig.url("https://127.0.0.1:9443", ca));  // at start and on changes
 * validating.cleanup();                                                         // at exit
 * }</pre>
 */
final class ConfigurationManager {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigurationManager.class);

    private final WebhookType type;
    private final String name;
    private final List<WebhookHandler> handlers;
    private final Supplier<Collection<Resource>> resources;
    private final KubernetesClient client;
    private final ApiRetries retries;
    private final Resource configurations;
    private WebhookClientConfig last;

    /**
     * @param type which configuration: validating or mutating
     * @param name the configuration's name ({@code settings.admission.managed})
     * @param handlers all admission handlers; those of other types are ignored
     * @param resources the resources the handlers serve, as discovered
     * @param client the operator's client
     * @param retries how failed requests are retried
     */
    public ConfigurationManager(WebhookType type, String name, Collection<WebhookHandler> handlers,
                                Supplier<Collection<Resource>> resources, KubernetesClient client, ApiRetries retries) {
        this.type = type;
        this.name = name;
        this.handlers = handlers.stream().filter(h -> h.type() == type).toList();
        this.resources = resources;
        this.client = client;
        this.retries = retries;
        this.configurations = new Resource("admissionregistration.k8s.io", "v1", type.plural(), type.kind(),
                type.plural().substring(0, type.plural().length() - 1), List.of(), List.of("api-extensions"), List.of(),
                false, true, List.of("create", "patch"));
    }

    /**
     * Creates the configuration if absent (once), and sets its webhooks for this client config.
     *
     * @param clientConfig how the API server reaches the webhook server now
     * @throws KubernetesClientException if the API server refuses (e.g. 403: the operator lacks RBAC permissions)
     */
    public synchronized void configure(WebhookClientConfig clientConfig) {
        if (last == null) {
            create();
        }
        last = clientConfig;
        LOG.info("Reconfiguring the {} webhook {}.", type.written(), name);
        patch(WebhookConfigurations.webhooks(handlers, resources.get(), name, clientConfig, false));
    }

    /** Rewrites the webhooks for the same client config (the resources changed), if it was ever configured. */
    public synchronized void refresh() {
        if (last != null) {
            configure(last);
        }
    }

    /** Reduces the configuration to the persistent handlers' webhooks, if it was ever configured. */
    public synchronized void cleanup() {
        if (last != null) {
            LOG.info("Cleaning up the admission webhook {}.", name);
            patch(WebhookConfigurations.webhooks(handlers, resources.get(), name, last, true));
        }
    }

    private void create() {
        String body = Json.compact(Map.of("apiVersion", "admissionregistration.k8s.io/v1", "kind", type.kind(),
                "metadata", Map.of("name", name)));
        try {
            ApiRequest collection = ApiRequest.collection(client, configurations, null);
            retries.call("POST " + collection.url(), client.getMasterUrl().toString(), LOG,
                    () -> collection.send("POST", ApiRequest.CREATE, body));
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                return;   // exists already
            }
            if (e.getCode() == 403) {
                LOG.error("Not enough RBAC permissions to create a {}.", configurations.plural() + "."
                        + configurations.version() + "." + configurations.group());
            }
            throw e;
        }
    }

    private void patch(List<Map<String, Object>> webhooks) {
        Map<String, Object> patch = new LinkedHashMap<>();
        patch.put("webhooks", webhooks);
        String body = Json.compact(patch);
        ApiRequest configuration = ApiRequest.object(client, configurations, null, name);
        retries.call("PATCH " + configuration.url(), client.getMasterUrl().toString(), LOG,
                () -> configuration.send("PATCH", ApiRequest.MERGE, body));
    }
}
