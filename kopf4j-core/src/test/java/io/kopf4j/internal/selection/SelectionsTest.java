package io.kopf4j.internal.selection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SelectionsTest {
    private static final Resource PODS = new Resource("", "v1", "pods", "Pod", "pod", List.of("po"), List.of("all"),
            List.of("status"), true, true, List.of("list", "watch"));
    private static final Resource EXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample", "kopfexample",
            List.of(), List.of(), List.of("status"), true, true, List.of("list", "watch"));

    @Test
    void aResourceNamedAsHandlersNameItGetsItsSelectors() {
        OperatorSettings settings = new OperatorSettings();
        settings.watching.labelSelectors.put("pods", "app=web");
        settings.watching.fieldSelectors.put("pods", "spec.nodeName=node-1");
        Selections selections = Selections.of(settings.watching);
        Selection pods = selections.of(PODS);
        assertThat(pods.labelQuery()).isEqualTo("app=web");
        assertThat(pods.fieldQuery()).isEqualTo("spec.nodeName=node-1");
        assertThat(selections.of(EXAMPLES)).as("watched whole").isNull();
        Map<String, Object> inside = Map.of("metadata", Map.of("labels", Map.of("app", "web")), "spec", Map.of("nodeName", "node-1"));
        Map<String, Object> elsewhere = Map.of("metadata", Map.of("labels", Map.of("app", "web")), "spec", Map.of("nodeName", "node-2"));
        assertThat(selections.serves(PODS, inside)).isTrue();
        assertThat(selections.serves(PODS, elsewhere)).isFalse();
        assertThat(selections.serves(EXAMPLES, elsewhere)).isTrue();
    }

    @Test
    void aBadEntryIsOneErrorNamingTheSetting() {
        OperatorSettings settings = new OperatorSettings();
        settings.watching.labelSelectors.put("kopfexamples.kopf.dev", "env in (a");
        assertThatThrownBy(() -> Selections.of(settings.watching)).isInstanceOf(OperatorException.class).hasMessage(
                "invalid setting settings.watching.labelSelectors[\"kopfexamples.kopf.dev\"]: expected ')' after the values"
                        + " of 'env' at 10");
        settings.watching.labelSelectors.clear();
        settings.watching.labelSelectors.put("category=all", "app=web");
        assertThatThrownBy(() -> Selections.of(settings.watching)).hasMessageContaining("settings.watching.labelSelectors[\"category=all\"]: names"
                + " several resources");
    }
}
