package io.kopf4j.internal.engines.conversion;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.Resource;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.internal.clients.ApiRequest;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.structs.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the CRDs' {@code spec.conversion} pointing at the operator's webhook server, as the
 * admission configurations are kept ({@code settings.conversion.managed}): strategy
 * {@code Webhook}, the server's URL or Service with {@code /convert/<crd>}, its CA bundle. Set
 * whenever the server publishes a client config (at the start, when its certificate changes) and
 * after a rescan (a CRD applied again without it). Never reset on exit: a CRD without its
 * conversion would serve unconverted objects, while a webhook that is down fails requests loudly.
 *
 * <pre>{@code
 * CrdConversions crds = new CrdConversions(List.of("widgets.example.com"), client, retries);
 * crds.configure(WebhookClientConfig.url("https://127.0.0.1:9443", ca));
 * }</pre>
 */
public final class CrdConversions {
    private static final Logger LOG = LoggerFactory.getLogger(CrdConversions.class);
    private static final Resource CRDS = new Resource("apiextensions.k8s.io", "v1", "customresourcedefinitions",
            "CustomResourceDefinition", "customresourcedefinition", List.of("crd", "crds"), List.of("api-extensions"),
            List.of(), false, false, List.of("patch"));

    private final List<String> crdNames;
    private final KubernetesClient client;
    private final ApiRetries retries;
    private WebhookClientConfig last;

    /**
     * @param crdNames the CRDs of the converted kinds, {@code <plural>.<group>}
     * @param client the operator's client
     * @param retries how failed requests are retried
     */
    public CrdConversions(List<String> crdNames, KubernetesClient client, ApiRetries retries) {
        this.crdNames = List.copyOf(crdNames);
        this.client = client;
        this.retries = retries;
    }

    /**
     * Points every CRD's conversion at this client config; a CRD not there yet is set when a rescan finds it.
     *
     * @throws KubernetesClientException if the API server refuses (e.g. 403: the operator lacks RBAC permissions)
     */
    public synchronized void configure(WebhookClientConfig clientConfig) {
        last = clientConfig;
        for (String name : crdNames) {
            try {
                LOG.info("Reconfiguring the conversion webhook of {}.", name);
                patch(name, mergePatch(clientConfig.forConversion(name)));
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    LOG.warn("The CRD {} is not found: its conversion webhook is set when it appears.", name);
                    continue;
                }
                if (e.getCode() == 403) {
                    LOG.error("Not enough RBAC permissions to patch the CRD {} (its spec.conversion).", name);
                }
                throw e;
            }
        }
    }

    /** Sets the conversions again for the same client config (a CRD appeared or was applied again), if ever set. */
    public synchronized void refresh() {
        if (last != null) {
            configure(last);
        }
    }

    /**
     * A CRD's {@code spec.conversion} through the operator's webhook server, as the operator keeps it
     * and as {@code kopf4j crd} and {@code kopf4j webhook-configuration} print it.
     *
     * @param clientConfig the server's client config for this CRD ({@link WebhookClientConfig#forConversion})
     * @return {@code {strategy: Webhook, webhook: {clientConfig, conversionReviewVersions}}}
     */
    public static Map<String, Object> conversion(WebhookClientConfig clientConfig) {
        Map<String, Object> webhook = new LinkedHashMap<>();
        webhook.put("clientConfig", clientConfig.toMap());
        webhook.put("conversionReviewVersions", WebhookClientConfig.CONVERSION_REVIEW_VERSIONS);
        Map<String, Object> conversion = new LinkedHashMap<>();
        conversion.put("strategy", "Webhook");
        conversion.put("webhook", webhook);
        return conversion;
    }

    /**
     * The merge patch of a CRD's conversion: the other of URL and Service is nulled, so that a switch
     * from one to the other leaves one (the API server refuses both).
     */
    static Map<String, Object> mergePatch(WebhookClientConfig clientConfig) {
        Map<String, Object> conversion = conversion(clientConfig);
        @SuppressWarnings("unchecked")
        Map<String, Object> webhook = (Map<String, Object>) conversion.get("webhook");
        Map<String, Object> target = new LinkedHashMap<>();
        target.put("url", null);
        target.put("service", null);
        target.put("caBundle", null);
        target.putAll(clientConfig.toMap());
        webhook.put("clientConfig", target);
        return Map.of("spec", Map.of("conversion", conversion));
    }

    private void patch(String name, Map<String, Object> patch) {
        String body = Json.compact(patch);
        ApiRequest crd = ApiRequest.object(client, CRDS, null, name);
        retries.call("PATCH " + crd.url(), client.getMasterUrl().toString(), LOG,
                () -> crd.send("PATCH", ApiRequest.MERGE, body));
    }
}
