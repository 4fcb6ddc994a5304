package io.kopf4j.internal.loading;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Resource;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.internal.engines.admission.AdmissionWebhooks;
import io.kopf4j.internal.engines.admission.WebhookConfigurations;
import io.kopf4j.internal.engines.conversion.CrdConversions;
import io.kopf4j.internal.intents.ConversionGraph;
import io.kopf4j.internal.intents.ConversionGraph.KindConversions;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerScanner;
import io.kopf4j.internal.intents.WebhookHandler;
import io.kopf4j.internal.intents.WebhookType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ValidatingWebhookConfiguration and MutatingWebhookConfiguration that
 * {@code settings.admission.managed} would keep, and the {@code spec.conversion} of each converted
 * kind's CRD that {@code settings.conversion.managed} would keep, as YAML to apply by hand: for
 * operators whose configurations are not managed ({@code kopf4j webhook-configuration}). The same webhooks, names
 * and rules as the managed ones; the handlers' resources are resolved through the cluster's discovery.
 *
 * <pre>{@code
 * String yaml = WebhookConfigurationPrinter.yaml(List.of(Handlers.class), client, "auto.kopf.dev",
 *         WebhookClientConfig.service("operators", "my-operator", null, 443, caBase64));
 * }</pre>
 */
public final class WebhookConfigurationPrinter {
    private static final YAMLMapper YAML = YAMLMapper.builder(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)).build();

    private WebhookConfigurationPrinter() {
    }

    /**
     * The two configurations as one YAML stream; a type without handlers is left out.
     *
     * @param handlers the classes (or instances) with {@code @On.Validate} and {@code @On.Mutate} methods
     * @param client a client of the cluster, for the resources' discovery
     * @param name the configurations' name, also the suffix of the webhooks' names
     * @param clientConfig how the API server reaches the operator's webhook server
     * @return the YAML, documents separated by {@code ---}; empty if there are no admission handlers nor conversions
     */
    public static String yaml(List<?> handlers, KubernetesClient client, String name, WebhookClientConfig clientConfig) {
        HandlerRegistry registry = new HandlerRegistry();
        handlers.forEach(target -> HandlerScanner.scan(target, registry));
        Collection<Resource> resources = AdmissionWebhooks.resolve(registry, client, true);
        List<String> documents = new ArrayList<>();
        for (WebhookType type : WebhookType.values()) {
            List<WebhookHandler> ofType = registry.webhookHandlers().stream().filter(h -> h.type() == type).toList();
            if (ofType.isEmpty()) {
                continue;
            }
            Map<String, Object> configuration = new LinkedHashMap<>();
            configuration.put("apiVersion", "admissionregistration.k8s.io/v1");
            configuration.put("kind", type.kind());
            configuration.put("metadata", Map.of("name", name));
            configuration.put("webhooks", WebhookConfigurations.webhooks(ofType, resources, name, clientConfig, false));
            documents.add(yaml(configuration));
        }
        for (KindConversions kind : ConversionGraph.of(registry.conversions()).kinds()) {
            // A part of the CRD, for kubectl patch --type merge or an overlay: the conversion the operator would keep.
            Map<String, Object> crd = new LinkedHashMap<>();
            crd.put("apiVersion", "apiextensions.k8s.io/v1");
            crd.put("kind", "CustomResourceDefinition");
            crd.put("metadata", Map.of("name", kind.crdName()));
            crd.put("spec", Map.of("conversion", CrdConversions.conversion(clientConfig.forConversion(kind.crdName()))));
            documents.add(yaml(crd));
        }
        return String.join("---\n", documents);
    }

    private static String yaml(Map<String, Object> document) {
        try {
            return YAML.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the configuration as YAML: " + e.getMessage(), e);
        }
    }
}
