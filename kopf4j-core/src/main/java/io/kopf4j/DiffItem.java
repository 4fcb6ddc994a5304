package io.kopf4j;

import java.util.List;

/**
 * One changed field: the operation, the field's path (e.g. {@code [spec, size]}), and the old and
 * new values ({@code null} where the field is absent). Lists are compared as whole values.
 *
 * <pre>{@code
 * @On.Update("kopfexamples")
 * void update(Diff diff, Logger logger) {
 *     for (DiffItem item : diff) {
 *         if (item.path().equals(List.of("spec", "size"))) logger.info("resized: {} -> {}", item.oldValue(), item.newValue());
 *     }
 * }
 * }</pre>
 *
 * @param operation what happened to the field
 * @param path the field path from the object's (or the watched field's) root
 * @param oldValue the value before, or null if the field was absent
 * @param newValue the value after, or null if the field is absent now
 */
public record DiffItem(DiffOperation operation, List<String> path, Object oldValue, Object newValue) {
    /** Copies the path. */
    public DiffItem {
        path = List.copyOf(path);
    }
}
