package io.kopf4j.internal.structs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.storage.AnnotationPrefixes;
import io.kopf4j.storage.Essence;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretValuesTest {
    private static Map<String, Object> secret(String uid, String password) {
        return Map.of("apiVersion", "v1", "kind", "Secret", "metadata", Map.of("name", "s", "uid", uid),
                "type", "Opaque", "data", Map.of("password", password), "stringData", Map.of("token", "plain"));
    }

    @Test
    void aSecretsEssenceHoldsDigestsThatChangeWithTheValueButNeverTheValue() {
        Essence essence = new Essence(new AnnotationPrefixes(AnnotationPrefixes.KOPF_PREFIX));
        Map<String, Object> first = essence.of(secret("u1", "c2VjcmV0"));
        Map<String, Object> same = essence.of(secret("u1", "c2VjcmV0"));
        Map<String, Object> changed = essence.of(secret("u1", "b3RoZXI="));
        Map<String, Object> elsewhere = essence.of(secret("u2", "c2VjcmV0"));

        assertThat(Json.compact(first)).doesNotContain("c2VjcmV0").doesNotContain("plain").contains("\"type\":\"Opaque\"");
        assertThat(((Map<?, ?>) first.get("data")).get("password").toString()).startsWith("sha256:").hasSize(7 + 32);
        assertThat(first).isEqualTo(same).isNotEqualTo(changed).isNotEqualTo(elsewhere);
        assertThat(io.kopf4j.Diff.between(first, changed).items()).singleElement()
                .satisfies(item -> assertThat(item.path()).containsExactly("data", "password"));
    }

    @Test
    void otherObjectsAreLeftAsTheyAre() {
        Map<String, Object> configMap = Map.of("apiVersion", "v1", "kind", "ConfigMap", "data", Map.of("k", "v"));
        Map<String, Object> custom = Map.of("apiVersion", "example.com/v1", "kind", "Secret", "data", Map.of("k", "v"));

        assertThat(SecretValues.digested(configMap)).isSameAs(configMap);
        assertThat(SecretValues.digested(custom)).isSameAs(custom);
        assertThat(SecretValues.digested(secret("u1", "c2VjcmV0")).toString()).doesNotContain("c2VjcmV0");
    }

}
