package io.kopf4j.cli;

import io.kopf4j.OperatorException;
import io.kopf4j.WebhookClientConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * How the API server reaches the operator's webhook server, from the options of the commands that
 * print webhook configurations ({@code webhook-configuration}, {@code crd --conversion-...}): a URL
 * or a Service, and the PEM file of the CA that signed the server's certificate.
 *
 * <pre>{@code
 * WebhookClientConfig config = WebhookTargets.clientConfig(null, "operators/my-operator", "--service", 443, null,
 *         Path.of("ca.pem"));
 * }</pre>
 */
final class WebhookTargets {
    private WebhookTargets() {
    }

    /**
     * @param url the base URL, or null for a Service
     * @param service {@code NAMESPACE/NAME}, or null for a URL
     * @param serviceOption the option that gave the Service, as errors name it
     * @param servicePort the Service's port, or null for 443
     * @param servicePath the base path at the Service, or null
     * @param caBundle the CA's PEM file, or null for the API server's own trust
     * @throws OperatorException naming the option at fault
     */
    static WebhookClientConfig clientConfig(String url, String service, String serviceOption, Integer servicePort,
                                            String servicePath, Path caBundle) throws IOException {
        String ca = null;
        if (caBundle != null) {
            if (!Files.isRegularFile(caBundle)) {
                throw new OperatorException("CA bundle file not found: " + caBundle);
            }
            ca = Base64.getEncoder().encodeToString(Files.readString(caBundle).getBytes(StandardCharsets.UTF_8));
        }
        if (url != null) {
            return WebhookClientConfig.url(url, ca);
        }
        String[] parts = service.split("/", -1);
        if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
            throw new OperatorException("invalid " + serviceOption + " '" + service + "': expected NAMESPACE/NAME");
        }
        return WebhookClientConfig.service(parts[0], parts[1], servicePath, servicePort, ca);
    }
}
