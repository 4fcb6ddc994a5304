package io.kopf4j;

import java.util.Map;

/**
 * What a webhook server passes along with an admission review: the handler id from the URL's
 * last path segment (null when the URL has none: every matching handler runs), the HTTP headers,
 * and the client's (the API server's) TLS certificate as Kopf's {@code sslpeer} (empty without
 * one). Handlers see them as their {@code headers} and {@code sslpeer} parameters.
 *
 * <pre>{@code
 * new WebhookRequest("validate", Map.of("Content-Type", "application/json"), Map.of())
 * }</pre>
 *
 * @param webhook the handler id addressed by the URL, or null
 * @param headers the request's HTTP headers (one value each)
 * @param sslpeer the client certificate's fields ({@code subject}, {@code issuer}, ...), or empty
 */
public record WebhookRequest(String webhook, Map<String, String> headers, Map<String, Object> sslpeer) {
    /** Copies the maps, and makes null ones empty. */
    public WebhookRequest {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        sslpeer = sslpeer == null ? Map.of() : Map.copyOf(sslpeer);
    }
}
