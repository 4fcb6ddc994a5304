package io.kopf4j;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the API server reaches the webhooks: a URL or an in-cluster Service, and the CA bundle that
 * signed the server's certificate; the {@code clientConfig} of the managed webhook configurations
 * (Kopf's {@code WebhookClientConfig}). Published by a {@link WebhookServing}.
 *
 * <pre>{@code
 * WebhookClientConfig.url("https://127.0.0.1:9443", caPemBase64)
 * WebhookClientConfig.service("operators", "my-operator", "/", 443, caPemBase64)
 * }</pre>
 *
 * @param url the base URL (the handler id is appended as the last path segment), or null
 * @param service the Service in front of the operator, or null
 * @param caBundle the base64 of the PEM CA bundle, or null for the API server's own trust
 */
public record WebhookClientConfig(String url, Service service, String caBundle) {
    /** The path segment under which the server takes conversions: {@code {base}/convert/<plural>.<group>}. */
    public static final String CONVERSION_PATH = "convert";
    /** The ConversionReview versions kopf4j answers, for a CRD's {@code conversionReviewVersions}. */
    public static final java.util.List<String> CONVERSION_REVIEW_VERSIONS = java.util.List.of("v1", "v1beta1");

    /** Exactly one of url and service. */
    public WebhookClientConfig {
        if ((url == null) == (service == null)) {
            throw new IllegalArgumentException("a webhook client config needs exactly one of url and service");
        }
    }

    /**
     * A client config by URL.
     *
     * @param url the base URL
     * @param caBundle the base64 of the PEM CA bundle, or null
     * @return the config
     */
    public static WebhookClientConfig url(String url, String caBundle) {
        return new WebhookClientConfig(url, null, caBundle);
    }

    /**
     * A client config by Service.
     *
     * @param namespace the Service's namespace
     * @param name the Service's name
     * @param path the base path, or null
     * @param port the Service's port, or null for 443
     * @param caBundle the base64 of the PEM CA bundle, or null
     * @return the config
     */
    public static WebhookClientConfig service(String namespace, String name, String path, Integer port, String caBundle) {
        return new WebhookClientConfig(null, new Service(namespace, name, path, port), caBundle);
    }

    /**
     * An in-cluster Service in front of the webhook server.
     *
     * @param namespace the Service's namespace
     * @param name the Service's name
     * @param path the base path, or null
     * @param port the port, or null for 443
     */
    public record Service(String namespace, String name, String path, Integer port) {
    }

    /**
     * The same config with the handler id appended to the URL or the Service's path, as Kopf's
     * managed configurations address each handler.
     *
     * @param id the handler id, URL-encoded here
     * @return the config for that handler
     */
    public WebhookClientConfig forHandler(String id) {
        String segment = java.net.URLEncoder.encode(id, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
        if (url != null) {
            return new WebhookClientConfig(url.replaceAll("/+$", "") + "/" + segment, null, caBundle);
        }
        String path = service.path() == null ? "" : service.path();
        return new WebhookClientConfig(null,
                new Service(service.namespace(), service.name(), path + "/" + segment, service.port()), caBundle);
    }

    /**
     * The same config for a CRD's conversion webhook: {@code {base}/convert/<plural>.<group>}.
     *
     * @param crdName the CRD's name, e.g. {@code widgets.example.com}
     * @return the config the CRD's {@code spec.conversion.webhook.clientConfig} holds
     */
    public WebhookClientConfig forConversion(String crdName) {
        WebhookClientConfig base = forHandler(CONVERSION_PATH);
        return base.forHandler(crdName);
    }

    /** {@return the config as the webhook configurations' JSON: url or service, and caBundle when set} */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        if (url != null) {
            map.put("url", url);
        } else {
            Map<String, Object> svc = new LinkedHashMap<>();
            svc.put("namespace", service.namespace());
            svc.put("name", service.name());
            if (service.path() != null) {
                svc.put("path", service.path());
            }
            if (service.port() != null) {
                svc.put("port", service.port());
            }
            map.put("service", svc);
        }
        if (caBundle != null) {
            map.put("caBundle", caBundle);
        }
        return map;
    }
}
