package io.kopf4j.internal.engines.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Condition;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.HandlerFn;
import io.kopf4j.HandlerKind;
import io.kopf4j.Resource;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerSpec;
import io.kopf4j.internal.intents.Specs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kopf's build_webhooks, _normalize_name, _build_labels_selector and _inject_handler_id. */
class WebhookConfigurationsTest {
    static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample", "kopfexample",
            List.of("kex"), List.of(), List.of("status"), true, true, List.of("list", "watch", "patch"));
    private static final Resource PODS = new Resource("", "v1", "pods", "Pod", "pod", List.of(), List.of(),
            List.of("status"), true, true, List.of("list", "watch", "patch"));
    private static final WebhookClientConfig URL = WebhookClientConfig.url("https://127.0.0.1:9443/", "Q0E=");
    private static final HandlerFn NOTHING = context -> null;

    private final HandlerRegistry registry = new HandlerRegistry();

    private List<Map<String, Object>> webhooks(WebhookClientConfig config, boolean persistentOnly) {
        return WebhookConfigurations.webhooks(registry.webhookHandlers(), List.of(KOPFEXAMPLES, PODS), "auto.kopf.dev",
                config, persistentOnly);
    }

    @Test
    void oneWebhookPerHandlerWithKopfsConventions() {
        Specs.spec(HandlerKind.VALIDATE, List.of("kopfexamples"), new Option.Id("check")).register(NOTHING, registry);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("name", "check.auto.kopf.dev");
        expected.put("sideEffects", "None");
        expected.put("failurePolicy", "Fail");
        expected.put("matchPolicy", "Equivalent");
        expected.put("rules", List.of(Map.of("apiGroups", List.of("kopf.dev"), "apiVersions", List.of("v1"),
                "resources", List.of("kopfexamples"), "operations", List.of("*"), "scope", "*")));
        expected.put("objectSelector", null);
        expected.put("clientConfig", Map.of("url", "https://127.0.0.1:9443/check", "caBundle", "Q0E="));
        expected.put("timeoutSeconds", 30);
        expected.put("admissionReviewVersions", List.of("v1", "v1beta1"));
        assertThat(webhooks(URL, false)).containsExactly(expected);
        assertThat(List.copyOf(webhooks(URL, false).get(0).keySet())).containsExactlyElementsOf(expected.keySet());
    }

    @Test
    void theOptionsShapeTheWebhook() {
        Specs.spec(HandlerKind.MUTATE, List.of("kopfexamples"), new Option.Id("scale"), new Option.Operations(List.of("CREATE", "UPDATE")), new Option.Subresource("scale"), new Option.SideEffects(), new Option.IgnoreFailures(), new Option.Label("app", new Condition.Exact("web")))
                .register(NOTHING, registry);
        Map<String, Object> webhook = webhooks(URL, false).get(0);
        assertThat(webhook).containsEntry("sideEffects", "NoneOnDryRun").containsEntry("failurePolicy", "Ignore")
                .containsEntry("rules", List.of(Map.of("apiGroups", List.of("kopf.dev"), "apiVersions", List.of("v1"),
                        "resources", List.of("kopfexamples/scale"), "operations", List.of("CREATE", "UPDATE"),
                        "scope", "*")))
                .containsEntry("objectSelector", Map.of("matchExpressions",
                        List.of(Map.of("key", "app", "operator", "In", "values", List.of("web")))));
    }

    @Test
    void aServiceClientConfigGetsTheHandlerIdInItsPath() {
        Specs.spec(HandlerKind.VALIDATE, List.of("kopfexamples"), new Option.Id("check")).register(NOTHING, registry);
        WebhookClientConfig service = WebhookClientConfig.service("ops", "op", "/hooks", 443, null);
        assertThat(webhooks(service, false).get(0)).containsEntry("clientConfig",
                Map.of("service", Map.of("namespace", "ops", "name", "op", "path", "/hooks/check", "port", 443)));
    }

    @Test
    void onExitOnlyThePersistentWebhooksStay() {
        Specs.spec(HandlerKind.VALIDATE, List.of("kopfexamples"), new Option.Id("kept"), new Option.Persistent()).register(NOTHING, registry);
        Specs.spec(HandlerKind.VALIDATE, List.of("kopfexamples"), new Option.Id("gone")).register(NOTHING, registry);
        assertThat(webhooks(URL, false)).extracting(w -> w.get("name"))
                .containsExactly("kept.auto.kopf.dev", "gone.auto.kopf.dev");
        assertThat(webhooks(URL, true)).extracting(w -> w.get("name")).containsExactly("kept.auto.kopf.dev");
    }

    @Test
    void rulesCoverEveryResourceTheSelectorMatches() {
        Specs.spec(HandlerKind.VALIDATE, List.of("pods"), new Option.Id("pods")).register(NOTHING, registry);
        assertThat(webhooks(URL, false).get(0).get("rules")).asList().singleElement()
                .extracting(rule -> ((Map<?, ?>) rule).get("apiGroups")).isEqualTo(List.of(""));
    }

    @Test
    void labelFiltersBecomeMatchExpressionsExceptPredicates() {
        Map<String, Condition> labels = new LinkedHashMap<>();
        labels.put("a", new Condition.Present());
        labels.put("b", new Condition.Absent());
        labels.put("c", new Condition.Exact("1"));
        labels.put("d", new Condition.Matching(value -> true));
        assertThat(WebhookConfigurations.labelSelector(labels)).isEqualTo(Map.of("matchExpressions", List.of(
                Map.of("key", "a", "operator", "Exists"), Map.of("key", "b", "operator", "DoesNotExist"),
                Map.of("key", "c", "operator", "In", "values", List.of("1")))));
        assertThat(WebhookConfigurations.labelSelector(Map.of("d", new Condition.Matching(value -> true)))).isNull();
        assertThat(WebhookConfigurations.labelSelector(Map.of())).isNull();
    }

    @Test
    void namesAreNormalisedAsKopfDoes() {
        assertThat(WebhookConfigurations.normalizeName("create_fn/spec.size", "auto.kopf.dev"))
                .isEqualTo("create-fn.spec.size.auto.kopf.dev");
        assertThat(WebhookConfigurations.normalizeName("a b:c", "s")).isEqualTo("a20b3ac.s");
        assertThat(WebhookConfigurations.normalizeName("x", "")).isEqualTo("x");
        assertThat(WebhookConfigurations.normalizeName("setDefaults", "auto.kopf.dev")).isEqualTo("setdefaults.auto.kopf.dev");
        assertThat(WebhookConfigurations.normalizeName("x", null)).isEqualTo("x");
    }
}
