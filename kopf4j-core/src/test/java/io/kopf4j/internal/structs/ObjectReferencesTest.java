package io.kopf4j.internal.structs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kopf's object references: only the known fields; none for null. */
class ObjectReferencesTest {
    @Test
    void clusterScopedObjectsHaveNoNamespaceAndNullsAreNoObjects() {
        Map<String, Object> node = Map.of("kind", "Node", "metadata", Map.of("name", "n1", "namespace", ""));
        assertThat(ObjectReferences.walk(Arrays.asList(null, new Object[] {node})))
                .containsExactly(Map.of("kind", "Node", "name", "n1"));
    }
}
