package io.kopf4j.internal.actions;

import io.kopf4j.Patch;
import io.kopf4j.internal.structs.TypedJson;
import java.util.Map;

/** Kopf's results delivery: a handler's non-null return value goes to {@code status.<id>}. */
public final class Results {
    private Results() {
    }

    /**
     * A handler's returned value as the plain JSON it is stored as ({@link TypedJson#toJson}), checked
     * while the handler's attempt is still open, so that a value that cannot be stored (a cyclic
     * structure, a thread, a structure nested deeper than JSON is written) fails the handler as its
     * errors mode says, and is never logged as a success and then lost.
     *
     * @param value what the handler returned
     * @return the value as plain JSON maps, lists and scalars
     * @throws IllegalArgumentException naming the value's type and why it cannot be stored
     */
    public static Object storable(Object value) {
        try {
            return TypedJson.toJson(value);
        } catch (IllegalArgumentException | StackOverflowError e) {
            String reason = e instanceof StackOverflowError ? "it nests without end (a cycle?)" : e.getMessage();
            throw new IllegalArgumentException("its returned value, a " + value.getClass().getName()
                    + ", cannot be stored as JSON: " + reason, e);
        }
    }

    /**
     * Maps are merged shallowly into {@code status.<id>}; any other value replaces it.
     *
     * @param result a value made {@link #storable} by the handler's attempt
     */
    @SuppressWarnings("unchecked")
    public static void deliver(Patch patch, String id, Object result) {
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
