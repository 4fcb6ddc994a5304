package io.kopf4j.internal.engines.conversion;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.WebhookClientConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CRD's conversion as the operator keeps it: printed whole, patched with the other target nulled. */
class CrdConversionsTest {
    private static final WebhookClientConfig SERVICE = WebhookClientConfig.service("operators", "cache-operator", null, 443,
            "Q0E=").forConversion("caches.kopf4j.dev");

    @Test
    void theConversionPointsAtTheServersConvertPathWithBothReviewVersions() {
        assertThat(CrdConversions.conversion(SERVICE)).isEqualTo(Map.of("strategy", "Webhook", "webhook", Map.of(
                "clientConfig", Map.of("service", Map.of("namespace", "operators", "name", "cache-operator",
                        "path", "/convert/caches.kopf4j.dev", "port", 443), "caBundle", "Q0E="),
                "conversionReviewVersions", List.of("v1", "v1beta1"))));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theMergePatchNullsTheOtherTargetSoThatASwitchLeavesOne() {
        Map<String, Object> patch = CrdConversions.mergePatch(WebhookClientConfig.url("https://127.0.0.1:9443", null)
                .forConversion("caches.kopf4j.dev"));

        Map<String, Object> target = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>)
                ((Map<String, Object>) patch.get("spec")).get("conversion")).get("webhook")).get("clientConfig");
        Map<String, Object> expected = new HashMap<>();
        expected.put("url", "https://127.0.0.1:9443/convert/caches.kopf4j.dev");
        expected.put("service", null);
        expected.put("caBundle", null);
        assertThat(target).isEqualTo(expected);
    }
}
