package io.kopf4j;

import java.util.Locale;

/**
 * What happened to a field between two versions of an object: Kopf's {@code add/change/remove}.
 *
 * <pre>{@code
 * for (DiffItem item : diff) {
 *     if (item.operation() == DiffOperation.REMOVE) logger.info("{} removed", item.path());
 * }
 * }</pre>
 */
public enum DiffOperation {
    /** The field was absent and is there now. */
    ADD,
    /** The field's value changed. */
    CHANGE,
    /** The field was there and is absent now. */
    REMOVE;

    /** Kopf's spelling: {@code add}, {@code change}, {@code remove}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
