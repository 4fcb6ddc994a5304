package io.kopf4j;

import java.util.List;

/**
 * The values under one key of an {@link Index} (Kopf's {@code kopf.Store}): one per object that
 * put a value there, in no particular order; read-only, always current.
 *
 * <pre>{@code
 * Store<String> pods = podsByApp.get("web");
 * if (!pods.isEmpty()) {
 *     pods.forEach(pod -> logger.info("pod {}", pod));
 * }
 * }</pre>
 *
 * @param <V> the values
 */
public interface Store<V> extends Iterable<V> {
    /** {@return how many objects put a value here} */
    int size();

    /** {@return whether no object put a value here} */
    default boolean isEmpty() {
        return size() == 0;
    }

    /** {@return a snapshot of the values} */
    List<V> values();
}
