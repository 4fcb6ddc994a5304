package io.kopf4j.internal.structs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reading and writing nested JSON maps by field path, as Kopf's {@code dicts} module. */
public final class Dicts {
    private static final Object ABSENT = new Object();

    private Dicts() {
    }

    /** The value at the path, or {@code fallback} if any step is missing or not a map. */
    public static Object resolve(Map<String, ?> root, List<String> path, Object fallback) {
        Object current = root;
        for (String key : path) {
            if (!(current instanceof Map<?, ?> map) || !map.containsKey(key)) {
                return fallback;
            }
            current = map.get(key);
        }
        return current;
    }

    public static boolean contains(Map<String, ?> root, List<String> path) {
        return resolve(root, path, ABSENT) != ABSENT;
    }

    /** Sets the value at the path, creating the intermediate maps. */
    @SuppressWarnings("unchecked")
    public static void ensure(Map<String, Object> root, List<String> path, Object value) {
        Map<String, Object> current = root;
        for (String key : path.subList(0, path.size() - 1)) {
            Object next = current.get(key);
            if (!(next instanceof Map<?, ?>)) {
                next = new LinkedHashMap<String, Object>();
                current.put(key, next);
            }
            current = (Map<String, Object>) next;
        }
        current.put(path.get(path.size() - 1), value);
    }

    /** Removes the value at the path, and the maps this leaves empty. */
    @SuppressWarnings("unchecked")
    public static void remove(Map<String, Object> root, List<String> path) {
        if (path.isEmpty() || !(root.get(path.get(0)) instanceof Map<?, ?>) && path.size() > 1) {
            return;
        }
        if (path.size() == 1) {
            root.remove(path.get(0));
            return;
        }
        Map<String, Object> child = (Map<String, Object>) root.get(path.get(0));
        remove(child, path.subList(1, path.size()));
        if (child.isEmpty()) {
            root.remove(path.get(0));
        }
    }

    /** Parses a dotted field path such as {@code spec.size}. */
    public static List<String> parseField(String field) {
        return List.of(field.split("\\."));
    }
}
