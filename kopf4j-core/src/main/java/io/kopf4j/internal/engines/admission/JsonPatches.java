package io.kopf4j.internal.engines.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.zjsonpatch.DiffFlags;
import io.fabric8.zjsonpatch.JsonDiff;
import io.kopf4j.Patch;
import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * A mutating handler's {@link Patch} as the JSON Patch operations of the admission response
 * (Kopf's {@code Patch.as_json_patch}): the merge patch and then the patch functions are applied
 * to a copy of the object, and the operations are the difference, computed by fabric8's zjsonpatch
 * (as Kopf's by the {@code jsonpatch} library). Changes that change nothing make no operations.
 *
 * <pre>{@code
 * patch.spec().put("size", 1);
 * JsonPatches.of(object, patch);   // [{op: add, path: /spec/size, value: 1}]
 * }</pre>
 */
final class JsonPatches {
    /** Plain operations (add, remove without the old value, replace), no moves or copies, as Python's jsonpatch makes them. */
    private static final EnumSet<DiffFlags> FLAGS = EnumSet.of(DiffFlags.OMIT_MOVE_OPERATION, DiffFlags.OMIT_COPY_OPERATION,
            DiffFlags.OMIT_VALUE_ON_REMOVE);

    private JsonPatches() {
    }

    /**
     * The operations that turn the object into the patched one.
     *
     * @param object the object of the admission request
     * @param patch the handlers' changes
     * @return the operations as JSON maps; empty when nothing changes
     */
    public static List<Object> of(Map<String, Object> object, Patch patch) {
        if (patch.isEmpty()) {
            return List.of();
        }
        Map<String, Object> patched = Json.deepCopy(object);
        merge(patched, List.of(), patch.toMap());
        patch.fns().forEach(fn -> fn.accept(patched));
        JsonNode diff = JsonDiff.asJson(Json.mapper().valueToTree(object), Json.mapper().valueToTree(patched), FLAGS);
        List<Object> operations = new ArrayList<>();
        diff.forEach(operation -> operations.add(Json.mapper().convertValue(operation, Object.class)));
        return operations;
    }

    /** Kopf's {@code _apply_patch}: null removes, a map merges key by key, anything else (lists too) replaces. */
    @SuppressWarnings("unchecked")
    private static void merge(Map<String, Object> body, List<String> path, Object value) {
        if (value == null) {
            Dicts.remove(body, path);
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((key, child) -> {
                List<String> childPath = new ArrayList<>(path);
                childPath.add(String.valueOf(key));
                merge(body, childPath, child);
            });
        } else {
            Dicts.ensure(body, path, value);
        }
    }
}
