package io.kopf4j.internal.engines.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Patch;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kopf's Patch.as_json_patch: merge patch, then functions, diffed against the object. */
class JsonPatchesTest {
    private static final Map<String, Object> OBJECT = Map.of("metadata", Map.of("name", "x"),
            "spec", Map.of("size", 5, "obsolete", true));

    @Test
    void anEmptyPatchMakesNoOperations() {
        assertThat(JsonPatches.of(OBJECT, new Patch())).isEmpty();
    }

    @Test
    void addsReplacesAndRemovesAsTheMergePatchSays() {
        Patch patch = new Patch();
        patch.spec().put("size", 7);
        patch.spec().put("obsolete", null);
        patch.labels().put("app", "web");
        assertThat(JsonPatches.of(OBJECT, patch)).containsExactlyInAnyOrder(
                Map.of("op", "replace", "path", "/spec/size", "value", 7),
                Map.of("op", "remove", "path", "/spec/obsolete"),
                Map.of("op", "add", "path", "/metadata/labels", "value", Map.of("app", "web")));
    }

    @Test
    void changesToWhatIsAlreadyThereMakeNoOperations() {
        Patch patch = new Patch();
        patch.spec().put("size", 5);
        patch.spec().put("absent", null);
        assertThat(JsonPatches.of(OBJECT, patch)).isEmpty();
    }

    @Test
    void functionsRunAfterTheMergePatch() {
        Patch patch = new Patch();
        patch.spec().put("size", 7);
        patch.fns().add(body -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> spec = (Map<String, Object>) body.get("spec");
            spec.put("doubled", (Integer) spec.get("size") * 2);
        });
        Map<String, Object> object = new LinkedHashMap<>(OBJECT);
        assertThat(JsonPatches.of(object, patch)).containsExactlyInAnyOrder(
                Map.of("op", "replace", "path", "/spec/size", "value", 7),
                Map.of("op", "add", "path", "/spec/doubled", "value", 14));
        assertThat(object).isEqualTo(OBJECT);   // the request's object itself is untouched
    }

    @Test
    void listsAreReplacedWhole() {
        Patch patch = new Patch();
        patch.spec().put("items", List.of("a"));
        assertThat(JsonPatches.of(OBJECT, patch)).containsExactly(
                Map.of("op", "add", "path", "/spec/items", "value", List.of("a")));
    }
}
