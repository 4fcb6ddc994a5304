package io.kopf4j.internal.engines.children;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Body;
import io.kopf4j.Patch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadyConditionTest {
    private static final Body PARENT = new Body(Map.of("metadata", Map.of("name", "web", "generation", 4)));

    private static Map.Entry<DesiredChildren.Child, Map<String, Object>> deployment(String name, int available) {
        DesiredChildren.Child child = new DesiredChildren.Child("apps", "Deployment", "shop", name, Map.of());
        return Map.entry(child, Map.of("kind", "Deployment", "spec", Map.of("replicas", 2),
                "status", Map.of("replicas", 2, "updatedReplicas", 2, "availableReplicas", available, "readyReplicas", available)));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> condition(Patch patch) {
        return ((List<Map<String, Object>>) patch.status().get("conditions")).getFirst();
    }

    @Test
    void allReadyIsTrueWithTheCount() {
        Patch patch = new Patch();
        ReadyCondition.children("Ready", PARENT, patch, List.of(deployment("a", 2), deployment("b", 2)));
        assertThat(condition(patch)).containsEntry("status", "True").containsEntry("reason", "ChildrenReady")
                .containsEntry("message", "2/2 ready").containsEntry("observedGeneration", 4L);
    }

    @Test
    void theFirstThreeNotReadyAreNamedAndTheRestCounted() {
        List<Map.Entry<DesiredChildren.Child, Map<String, Object>>> children = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            children.add(deployment("d" + i, 1));
        }
        children.add(deployment("ok", 2));
        Patch patch = new Patch();
        ReadyCondition.children("Ready", PARENT, patch, children);
        assertThat(condition(patch)).containsEntry("status", "False").containsEntry("reason", "ChildrenNotReady")
                .containsEntry("message", "1/6 ready; Deployment 'shop/d0': Available: 1/2; Deployment 'shop/d1': Available: 1/2;"
                        + " Deployment 'shop/d2': Available: 1/2; and 2 more");
    }
}
