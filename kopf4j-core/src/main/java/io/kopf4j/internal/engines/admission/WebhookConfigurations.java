package io.kopf4j.internal.engines.admission;

import io.kopf4j.Condition;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.Resource;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.internal.intents.WebhookHandler;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code webhooks} of a Validating- or MutatingWebhookConfiguration, with every convention of
 * Kopf's {@code build_webhooks}: one webhook per handler, named after its id and the configuration,
 * its rules for the handler's resources, operations and subresource, its {@code objectSelector}
 * from the handler's label filters, its {@code clientConfig} addressing the handler by id.
 *
 * <pre>{@code
 * List<Map<String, Object>> webhooks = WebhookConfigurations.webhooks(handlers, resources, "auto.kopf.dev",
 *         WebhookClientConfig.url("https://127.0.0.1:9443", ca), false);
 * // [{name: validate.auto.kopf.dev, sideEffects: None, failurePolicy: Fail, matchPolicy: Equivalent, rules: [...],
 * //   objectSelector: null, clientConfig: {url: https://127.0.0.1:9443/validate, caBundle: ...},
 * //   timeoutSeconds: 30, admissionReviewVersions: [v1, v1beta1]}]
 * }</pre>
 */
public final class WebhookConfigurations {
    /** Kopf's {@code BAD_WEBHOOK_NAME}: Python's {@code [^\w\d\.-]}, where {@code \w} is Unicode-aware. */
    private static final Pattern BAD_NAME = Pattern.compile("[^\\w.-]", Pattern.UNICODE_CHARACTER_CLASS);

    private WebhookConfigurations() {
    }

    /**
     * The webhooks for the handlers.
     *
     * @param handlers the admission handlers of one type (validating or mutating)
     * @param resources the resources the handlers serve, as discovered
     * @param nameSuffix the configuration's name ({@code settings.admission.managed}), appended to each name
     * @param clientConfig how the API server reaches the webhook server
     * @param persistentOnly only the handlers that stay when the operator exits
     * @return the {@code webhooks} list
     */
    public static List<Map<String, Object>> webhooks(Collection<WebhookHandler> handlers, Collection<Resource> resources,
                                                     String nameSuffix, WebhookClientConfig clientConfig,
                                                     boolean persistentOnly) {
        List<Map<String, Object>> webhooks = new ArrayList<>();
        for (WebhookHandler handler : handlers) {
            if (persistentOnly && !handler.options().has(Option.Persistent.class)) {
                continue;
            }
            Map<String, Object> webhook = new LinkedHashMap<>();
            webhook.put("name", normalizeName(handler.id(), nameSuffix));
            webhook.put("sideEffects", handler.options().has(Option.SideEffects.class) ? "NoneOnDryRun" : "None");
            webhook.put("failurePolicy", handler.options().has(Option.IgnoreFailures.class) ? "Ignore" : "Fail");
            webhook.put("matchPolicy", "Equivalent");
            webhook.put("rules", rules(handler, resources));
            webhook.put("objectSelector", labelSelector(handler.filters().labels()));
            webhook.put("clientConfig", clientConfig.forHandler(handler.id()).toMap());
            webhook.put("timeoutSeconds", 30);   // the maximum that Kubernetes permits
            webhook.put("admissionReviewVersions", List.of("v1", "v1beta1"));   // only those Kopf understands
            webhooks.add(webhook);
        }
        return webhooks;
    }

    private static List<Map<String, Object>> rules(WebhookHandler handler, Collection<Resource> resources) {
        List<Map<String, Object>> rules = new ArrayList<>();
        for (Resource resource : resources) {
            if (handler.selector().matches(resource)) {
                Map<String, Object> rule = new LinkedHashMap<>();
                rule.put("apiGroups", List.of(resource.group()));
                rule.put("apiVersions", List.of(resource.version()));
                rule.put("resources", List.of(handler.subresource() == null ? resource.plural()
                        : resource.plural() + "/" + handler.subresource()));
                rule.put("operations", handler.operations() == null ? List.of("*") : handler.operations());
                rule.put("scope", "*");   // does not matter: the rule names one resource
                rules.add(rule);
            }
        }
        return rules;
    }

    /**
     * Kopf's {@code _build_labels_selector}: exact values as {@code In}, present and absent labels as
     * {@code Exists} and {@code DoesNotExist}; predicates cannot be expressed and are left to the
     * handler's own filters.
     *
     * @param labels the handler's label filters
     * @return the {@code objectSelector}, or null if no label filter can be expressed
     */
    public static Map<String, Object> labelSelector(Map<String, Condition> labels) {
        List<Map<String, Object>> expressions = new ArrayList<>();
        labels.forEach((key, condition) -> {
            Map<String, Object> expression = new LinkedHashMap<>();
            expression.put("key", key);
            switch (condition) {
                case Condition.Present present -> expression.put("operator", "Exists");
                case Condition.Absent absent -> expression.put("operator", "DoesNotExist");
                case Condition.Exact exact -> {
                    expression.put("operator", "In");
                    expression.put("values", List.of(exact.text()));
                }
                case Condition.Matching matching -> expression.clear();
            }
            if (!expression.isEmpty()) {
                expressions.add(expression);
            }
        });
        return expressions.isEmpty() ? null : Map.of("matchExpressions", expressions);
    }

    /**
     * Kopf's {@code _normalize_name}: a handler id as a webhook name, which Kubernetes wants a
     * lowercase RFC 1123 subdomain: slashes become dots, underscores dashes, other characters their
     * UTF-8 bytes in hex; then the configuration's name as a suffix. Unlike Kopf, the name is also
     * lower-cased: Java's method names (the default ids) are camelCase, which Kubernetes refuses
     * (Python's are snake_case, so Kopf never needed it).
     *
     * @param id the handler id
     * @param suffix the configuration's name, or null or empty for none
     * @return the webhook's name, e.g. {@code create-fn.spec.size.auto.kopf.dev} for {@code create_fn/spec.size},
     *         {@code setdefaults.auto.kopf.dev} for {@code setDefaults}
     */
    public static String normalizeName(String id, String suffix) {
        String name = id.replace('/', '.').replace('_', '-').toLowerCase(java.util.Locale.ROOT);
        Matcher bad = BAD_NAME.matcher(name);
        name = bad.replaceAll(match -> HexFormat.of().formatHex(match.group().getBytes(StandardCharsets.UTF_8)));
        return suffix == null || suffix.isEmpty() ? name : name + "." + suffix;
    }
}
