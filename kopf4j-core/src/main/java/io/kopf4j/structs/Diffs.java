package io.kopf4j.structs;

import io.kopf4j.Diff;
import io.kopf4j.DiffItem;
import io.kopf4j.DiffOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Kopf's diff algorithm: recurse into maps, compare everything else (lists too) as whole values. */
public final class Diffs {
    private Diffs() {
    }

    /** The diff from {@code old} to {@code current}; {@code null} stands for "absent". */
    public static Diff between(Object old, Object current) {
        List<DiffItem> items = new ArrayList<>();
        collect(old, current, new ArrayList<>(), items);
        return new Diff(items);
    }

    /**
     * The diff as seen from a field, as Kopf's {@code diffs.reduce}: items under the field with paths
     * relative to it; items of a parent that was added, removed or replaced whole are re-diffed
     * down to the field.
     */
    public static Diff reduce(Diff diff, List<String> field) {
        List<DiffItem> items = new ArrayList<>();
        for (DiffItem item : diff) {
            List<String> path = item.path();
            if (startsWith(path, field)) {
                items.add(new DiffItem(item.operation(), path.subList(field.size(), path.size()), item.oldValue(), item.newValue()));
            } else if (startsWith(field, path)) {
                List<String> tail = field.subList(path.size(), field.size());
                collect(resolve(item.oldValue(), tail), resolve(item.newValue(), tail), new ArrayList<>(), items);
            }
        }
        return new Diff(items);
    }

    private static boolean startsWith(List<String> path, List<String> prefix) {
        return path.size() >= prefix.size() && path.subList(0, prefix.size()).equals(prefix);
    }

    @SuppressWarnings("unchecked")
    private static Object resolve(Object value, List<String> path) {
        return value instanceof Map<?, ?> map ? Dicts.resolve((Map<String, ?>) map, path, null) : path.isEmpty() ? value : null;
    }

    private static void collect(Object a, Object b, List<String> path, List<DiffItem> out) {
        if (Json.equal(a, b)) {
            return;
        }
        if (a == null) {
            out.add(new DiffItem(DiffOperation.ADD, path, null, b));
        } else if (b == null) {
            out.add(new DiffItem(DiffOperation.REMOVE, path, a, null));
        } else if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            // Kopf's order: added keys, then removed keys, then keys present on both sides.
            for (Map.Entry<?, ?> entry : y.entrySet()) {
                if (!x.containsKey(entry.getKey())) {
                    collect(null, entry.getValue(), child(path, entry.getKey()), out);
                }
            }
            for (Map.Entry<?, ?> entry : x.entrySet()) {
                if (!y.containsKey(entry.getKey())) {
                    collect(entry.getValue(), null, child(path, entry.getKey()), out);
                }
            }
            for (Map.Entry<?, ?> entry : x.entrySet()) {
                if (y.containsKey(entry.getKey())) {
                    collect(entry.getValue(), y.get(entry.getKey()), child(path, entry.getKey()), out);
                }
            }
        } else {
            out.add(new DiffItem(DiffOperation.CHANGE, path, a, b));
        }
    }

    private static List<String> child(List<String> path, Object key) {
        List<String> child = new ArrayList<>(path);
        child.add(String.valueOf(key));
        return child;
    }
}
