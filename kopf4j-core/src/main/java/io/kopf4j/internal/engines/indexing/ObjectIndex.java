package io.kopf4j.internal.engines.indexing;

import io.kopf4j.Index;
import io.kopf4j.Store;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One index (Kopf's {@code Index} with its reverse index): the stores by key, and for each object
 * the keys it has values under, so that an object's values are replaced or removed without a scan.
 * Result interpretation as Kopf's: a map puts its values under its keys, any other value goes under
 * the {@code null} key. Writes are serialized (several watchers may feed one index); handlers read
 * on any thread without locks.
 *
 * <pre>{@code
 * ObjectIndex index = new ObjectIndex();
 * index.replace("ns/pod-1", Map.of("web", "pod-1"));
 * index.get("web").values();   // ["pod-1"]
 * index.discard("ns/pod-1");
 * }</pre>
 */
final class ObjectIndex implements Index<Object, Object> {
    private static final Store<Object> EMPTY = new ObjectStore();

    private final Map<Object, ObjectStore> stores = new ConcurrentHashMap<>();
    private final Map<String, Set<Object>> keysOfObjects = new ConcurrentHashMap<>();

    /** Puts the object's new values where the result says, and removes its values from the keys it no longer has. */
    synchronized void replace(String object, Object result) {
        Map<Object, Object> values = new LinkedHashMap<>();
        if (result instanceof Map<?, ?> map) {
            map.forEach((key, value) -> values.put(Nulls.mask(key), value));
        } else {
            values.put(Nulls.mask(null), result);
        }
        Set<Object> previous = keysOfObjects.getOrDefault(object, Set.of());
        values.forEach((key, value) -> stores.computeIfAbsent(key, k -> new ObjectStore()).replace(object, value));
        Set<Object> gone = new HashSet<>(previous);
        gone.removeAll(values.keySet());
        gone.forEach(key -> discard(object, key));
        keysOfObjects.put(object, Set.copyOf(values.keySet()));
    }

    /** Removes all the object's values. */
    synchronized void discard(String object) {
        Set<Object> keys = keysOfObjects.remove(object);
        if (keys != null) {
            keys.forEach(key -> discard(object, key));
        }
    }

    private void discard(String object, Object key) {
        ObjectStore store = stores.get(key);
        if (store != null) {
            store.discard(object);
            if (store.isEmpty()) {
                stores.remove(key);
            }
        }
    }

    @Override
    public Store<Object> get(Object key) {
        Store<Object> store = stores.get(Nulls.mask(key));
        return store == null ? EMPTY : store;
    }

    @Override
    public boolean containsKey(Object key) {
        return stores.containsKey(Nulls.mask(key));
    }

    @Override
    public Set<Object> keys() {
        Set<Object> keys = new HashSet<>();
        stores.keySet().forEach(key -> keys.add(Nulls.unmask(key)));
        return Collections.unmodifiableSet(keys);
    }

    @Override
    public int size() {
        return stores.size();
    }

    @Override
    public Iterator<Object> iterator() {
        return keys().iterator();
    }

    @Override
    public String toString() {
        Map<Object, List<Object>> shown = new LinkedHashMap<>();
        stores.forEach((key, store) -> shown.put(Nulls.unmask(key), store.values()));
        return shown.toString();
    }
}
