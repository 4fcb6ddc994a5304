package io.kopf4j.internal.selection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LabelSelectorTest {
    private static boolean matches(String selector, Map<String, String> labels) {
        return LabelSelector.parse(selector).matches(labels);
    }

    @Test
    void equalityAndInequality() {
        assertThat(matches("app=web", Map.of("app", "web"))).isTrue();
        assertThat(matches("app==web", Map.of("app", "web"))).isTrue();
        assertThat(matches("app=web", Map.of("app", "db"))).isFalse();
        assertThat(matches("app=web", Map.of())).isFalse();
        assertThat(matches("app!=web", Map.of())).as("!= holds for an absent label, as the API server's").isTrue();
        assertThat(matches("app!=web", Map.of("app", "web"))).isFalse();
        assertThat(matches("app=", Map.of("app", ""))).as("an empty value").isTrue();
    }

    @Test
    void setsExistenceAndIntegers() {
        assertThat(matches("env in (prod, staging)", Map.of("env", "staging"))).isTrue();
        assertThat(matches("env in (prod,staging)", Map.of("env", "dev"))).isFalse();
        assertThat(matches("env notin (dev)", Map.of())).isTrue();
        assertThat(matches("env notin (dev)", Map.of("env", "dev"))).isFalse();
        assertThat(matches("managed", Map.of("managed", ""))).isTrue();
        assertThat(matches("!legacy", Map.of("legacy", "yes"))).isFalse();
        assertThat(matches("replicas>2", Map.of("replicas", "3"))).isTrue();
        assertThat(matches("replicas<2", Map.of("replicas", "x"))).isFalse();
    }

    @Test
    void everyRequirementMustHold() {
        String selector = " example.com/app = web , tier!=test,managed ";
        assertThat(matches(selector, Map.of("example.com/app", "web", "managed", "1"))).isTrue();
        assertThat(matches(selector, Map.of("example.com/app", "web", "tier", "test", "managed", "1"))).isFalse();
        assertThat(LabelSelector.parse(selector)).hasToString(selector.strip());
    }

    @Test
    void aMalformedSelectorSaysWhatAndWhere() {
        assertThatThrownBy(() -> LabelSelector.parse("env in (a, b")).hasMessage("expected ')' after the values of 'env' at 13");
        assertThatThrownBy(() -> LabelSelector.parse("env in a")).hasMessage("expected '(' after 'in' or 'notin' of 'env' at 8");
        assertThatThrownBy(() -> LabelSelector.parse("app=we b")).hasMessage("unexpected 'b' at 8");
        assertThatThrownBy(() -> LabelSelector.parse("-app=web")).hasMessage("'-app' is no label key at 1");
        assertThatThrownBy(() -> LabelSelector.parse("app=web,")).hasMessage("expected a label key at 9");
        assertThatThrownBy(() -> LabelSelector.parse("n>two")).hasMessage("'>' needs an integer value for 'n', not 'two' at 6");
        assertThatThrownBy(() -> LabelSelector.parse("app=w@b")).hasMessage("'w@b' is no label value (of 'app') at 8");
        assertThatThrownBy(() -> LabelSelector.parse(" ")).hasMessage("is empty: it would select every object");
    }
}
