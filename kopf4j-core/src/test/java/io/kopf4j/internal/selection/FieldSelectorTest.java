package io.kopf4j.internal.selection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FieldSelectorTest {
    private static final Map<String, Object> POD = Map.of("metadata", Map.of("name", "web-1", "namespace", "default"),
            "spec", Map.of("nodeName", "node-1"), "status", Map.of("phase", "Running"));

    @Test
    void termsOnDottedPaths() {
        assertThat(FieldSelector.parse("spec.nodeName=node-1").matches(POD)).isTrue();
        assertThat(FieldSelector.parse("spec.nodeName==node-2").matches(POD)).isFalse();
        assertThat(FieldSelector.parse("status.phase!=Succeeded,metadata.name=web-1").matches(POD)).isTrue();
        assertThat(FieldSelector.parse("metadata.namespace!=default").matches(POD)).isFalse();
    }

    @Test
    void anAbsentFieldIsEmpty() {
        assertThat(FieldSelector.parse("spec.schedulerName=").matches(POD)).isTrue();
        assertThat(FieldSelector.parse("spec.schedulerName!=").matches(POD)).isFalse();
    }

    @Test
    void aBackslashEscapesCommasAndEqualSigns() {
        Map<String, Object> odd = Map.of("metadata", Map.of("name", "a,b=c"));
        assertThat(FieldSelector.parse("metadata.name=a\\,b\\=c").matches(odd)).isTrue();
    }

    @Test
    void aMalformedSelectorNamesTheTerm() {
        assertThatThrownBy(() -> FieldSelector.parse("spec.nodeName")).hasMessage("'spec.nodeName' has no operator (=, == or !=)");
        assertThatThrownBy(() -> FieldSelector.parse("spec..x=1")).hasMessage("'spec..x' is no field path (in 'spec..x=1')");
        assertThatThrownBy(() -> FieldSelector.parse("")).hasMessage("is empty: it would select every object");
    }
}
