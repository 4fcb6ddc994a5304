package io.kopf4j;

import java.util.Set;

/**
 * An in-memory index of objects (Kopf's {@code kopf.Index}): for every key that an
 * {@link Indexer indexing function} returned, the {@link Store} of the values that the objects put
 * under it. Read-only for handlers, always current (the operator updates it as the objects change),
 * with O(1) lookups; iterating goes over the keys. A handler, daemon, timer or another indexing
 * function declares it as a parameter named like the index's id.
 *
 * <pre>{@code
 * @Indexer("pods")
 * Map<String, String> podsByApp(Map<String, String> labels, String name) {
 *     return labels.containsKey("app") ? Map.of(labels.get("app"), name) : null;
 * }
 *
 * @On.Create("kopfexamples")
 * void create(Index<String, String> podsByApp, Spec spec) {
 *     for (String pod : podsByApp.get(spec.getString("app"))) { ... }
 * }
 * }</pre>
 *
 * @param <K> the keys, as the indexing function returns them ({@code null} for non-map results)
 * @param <V> the values
 */
public interface Index<K, V> extends Iterable<K> {
    /**
     * The values under a key.
     *
     * @param key the key ({@code null} for what the objects returned as non-map values)
     * @return the values, or an empty store if no object has the key
     */
    Store<V> get(K key);

    /**
     * {@return whether any object has values under the key}
     *
     * @param key the key ({@code null} for what the objects returned as non-map values)
     */
    boolean containsKey(K key);

    /** {@return a snapshot of the keys} */
    Set<K> keys();

    /** {@return the number of keys} */
    int size();

    /** {@return whether no object has any key} */
    default boolean isEmpty() {
        return size() == 0;
    }
}
