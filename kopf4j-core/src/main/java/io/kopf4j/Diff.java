package io.kopf4j;

import io.kopf4j.structs.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

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
