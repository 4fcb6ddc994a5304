package io.kopf4j;

import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The essential difference between the last handled state of an object and its current state, as
 * in Kopf: status and system metadata are not part of it; labels, annotations and spec are.
 *
 * <pre>{@code
 * @On.Create("kopfexamples")
 * void create(Diff diff, Logger logger) {
 *     for (DiffItem item : diff) logger.info("{} {}: {} -> {}", item.operation(), item.path(), item.oldValue(), item.newValue());
 * }
 * }</pre>
 *
 * <p>Kopf's diff algorithm ({@code kopf.diffs.diff} and {@code reduce}): maps are recursed into,
 * everything else (lists too) is compared as a whole value; {@code null} stands for "absent".
 *
 * <pre>{@code
 * Diff diff = Diff.between(Map.of("spec", Map.of("size", "1G")), Map.of("spec", Map.of("size", "2G")));
 * diff.reduce(List.of("spec"));   // [["change",["size"],"1G","2G"]]
 * }</pre>
 */
public final class Diff implements Iterable<DiffItem> {
    private final List<DiffItem> items;

    /**
     * A diff of these items.
     *
     * @param items the changed fields, copied
     */
    public Diff(List<DiffItem> items) {
        this.items = List.copyOf(items);
    }

    /**
     * The diff from {@code old} to {@code current}, as Kopf's {@code diffs.diff}.
     *
     * @param old the old state; {@code null} for "absent"
     * @param current the new state; {@code null} for "absent"
     * @return the changed fields: added keys, then removed keys, then keys changed on both sides
     */
    public static Diff between(Object old, Object current) {
        List<DiffItem> items = new ArrayList<>();
        collect(old, current, new ArrayList<>(), items);
        return new Diff(items);
    }

    /**
     * This diff as seen from a field, as Kopf's {@code diffs.reduce}: items under the field with paths
     * relative to it; items of a parent that was added, removed or replaced whole are re-diffed
     * down to the field.
     *
     * @param field the field's path, e.g. {@code List.of("spec", "size")}
     * @return the diff of that field alone
     */
    public Diff reduce(List<String> field) {
        List<DiffItem> reduced = new ArrayList<>();
        for (DiffItem item : items) {
            List<String> path = item.path();
            if (startsWith(path, field)) {
                reduced.add(new DiffItem(item.operation(), path.subList(field.size(), path.size()), item.oldValue(), item.newValue()));
            } else if (startsWith(field, path)) {
                List<String> tail = field.subList(path.size(), field.size());
                collect(resolve(item.oldValue(), tail), resolve(item.newValue(), tail), new ArrayList<>(), reduced);
            }
        }
        return new Diff(reduced);
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

    /** {@return the changed fields} */
    public List<DiffItem> items() {
        return items;
    }

    /** {@return true if nothing changed} */
    public boolean isEmpty() {
        return items.isEmpty();
    }

    /** {@return how many fields changed} */
    public int size() {
        return items.size();
    }

    @Override
    public Iterator<DiffItem> iterator() {
        return items.iterator();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Diff diff && diff.items.equals(items);
    }

    @Override
    public int hashCode() {
        return items.hashCode();
    }

    /** Kopf's tuple notation as JSON: {@code [["change",["spec","size"],"1G","2G"]]}. */
    @Override
    public String toString() {
        List<Object> rows = new ArrayList<>();
        for (DiffItem item : items) {
            List<Object> row = new ArrayList<>();
            row.add(item.operation().toString());
            row.add(item.path());
            row.add(item.oldValue());
            row.add(item.newValue());
            rows.add(row);
        }
        return Json.compact(rows);
    }
}
