package io.kopf4j.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.On;
import io.kopf4j.Patch;
import io.kopf4j.Spec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Handlers are plain methods: docs/testing.md's tests without a control plane. */
class HandlerUnitTest {
    public static class Scaler {
        @On.Update(value = "kopfexamples", field = "spec.size")
        public void scale(Spec spec, Patch patch) {
            patch.status().put("replicas", spec.getInt("size", 1));
            patch.fns().add(body -> conditions(body).add(Map.of("type", "Scaled", "status", "True")));
        }

        @SuppressWarnings("unchecked")
        static List<Object> conditions(Map<String, Object> body) {
            return (List<Object>) ((Map<String, Object>) body.get("status")).get("conditions");
        }
    }

    @Test
    void theExampleOperatorGreets() {
        assertThat(new ExampleOperator().create("kopf-example-1")).isEqualTo(Map.of("message", "hello, kopf-example-1"));
    }

    @Test
    void scalingWritesTheReplicasAndAppendsACondition() {
        Patch patch = new Patch();
        new Scaler().scale(new Spec(Map.of("size", 3)), patch);
        assertThat(patch.toMap()).isEqualTo(Map.of("status", Map.of("replicas", 3)));

        // The functions edit the object as the API server has it, as kopf4j applies them to the freshest one.
        Map<String, Object> object = Map.of("status", Map.of("conditions", new ArrayList<>(List.of(Map.of("type", "Ready")))));
        patch.fns().forEach(fn -> fn.accept(object));
        assertThat(Scaler.conditions(object)).containsExactly(Map.of("type", "Ready"), Map.of("type", "Scaled", "status", "True"));
    }
}
