package io.kopf4j.internal.engines.posting;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A map that remembers its entries in the order they were last used, so that the correlation's
 * state about objects and Events is forgotten oldest first: when it has grown past its capacity,
 * and once stale (e.g. older than {@code settings.posting.correlationWindow}). Not thread-safe.
 *
 * <pre>{@code
 * RecentMap<EventKey, Group> groups = new RecentMap<>(10_000);
 * groups.forgetWhile(group -> group.last().isBefore(windowStart));   // the oldest first, while stale
 * Group group = groups.get(key);                                      // now the most recent
 * }</pre>
 */
final class RecentMap<K, V> {
    private final int capacity;
    private final LinkedHashMap<K, V> entries = new LinkedHashMap<>(16, 0.75f, true);

    /** @param capacity the most entries kept; {@link #put} forgets the least recently used beyond it */
    RecentMap(int capacity) {
        this.capacity = capacity;
    }

    /** The value, which becomes the most recently used; null if unknown. */
    V get(K key) {
        return entries.get(key);
    }

    V remove(K key) {
        return entries.remove(key);
    }

    /** Adds or replaces a value as the most recently used, forgetting the least recently used beyond the capacity. */
    void put(K key, V value) {
        entries.put(key, value);
        while (entries.size() > capacity) {
            removeEldest();
        }
    }

    /** Forgets the least recently used entry, if any. */
    void removeEldest() {
        Iterator<V> eldest = entries.values().iterator();
        if (eldest.hasNext()) {
            eldest.next();
            eldest.remove();
        }
    }

    /**
     * Forgets entries from the least recently used on, as long as they are stale: entries behind a
     * fresh one wait for their turn, so an entry is forgotten at the latest when every entry used
     * before it is stale too.
     */
    void forgetWhile(Predicate<V> stale) {
        Iterator<Map.Entry<K, V>> eldest = entries.entrySet().iterator();
        while (eldest.hasNext() && stale.test(eldest.next().getValue())) {
            eldest.remove();
        }
    }

    int size() {
        return entries.size();
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }
}
