package io.kopf4j.actions;

import io.kopf4j.Patch;
import io.kopf4j.structs.TypedJson;
import java.util.Map;

/** Kopf's results delivery: a handler's non-null return value goes to {@code status.<id>}. */
public final class Results {
    private Results() {
    }

    /**
     * Maps (and records and POJOs, as maps of their fields) are merged shallowly into
     * {@code status.<id>}; any other value replaces it.
     */
    @SuppressWarnings("unchecked")
    public static void deliver(Patch patch, String id, Object value) {
        Object result = TypedJson.toJson(value);
        if (result == null) {
            return;
        }
        Object existing = patch.status().get(id);
        if (result instanceof Map<?, ?> map && existing instanceof Map<?, ?> section) {
            ((Map<String, Object>) section).putAll((Map<String, Object>) map);
        } else if (result instanceof Map<?, ?> map) {
            patch.status().put(id, new java.util.LinkedHashMap<>((Map<String, Object>) map));
        } else {
            patch.status().put(id, result);
        }
    }
}
