package io.kopf4j.internal.engines.indexing;

import io.kopf4j.Store;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The values under one key of an index, one per object: replaced or removed by the object's key in
 * O(1) (Kopf's {@code Store}). Written by the indexing engine, read by handlers on any thread.
 *
 * <pre>{@code
 * ObjectStore store = new ObjectStore();
 * store.replace("ns/pod-1", "10.0.0.1");
 * store.values();   // ["10.0.0.1"]
 * }</pre>
 */
final class ObjectStore implements Store<Object> {
    private final Map<String, Object> byObject = new ConcurrentHashMap<>();

    void replace(String object, Object value) {
        byObject.put(object, Nulls.mask(value));
    }

    void discard(String object) {
        byObject.remove(object);
    }

    @Override
    public int size() {
        return byObject.size();
    }

    @Override
    public List<Object> values() {
        List<Object> values = new ArrayList<>(byObject.size());
        byObject.values().forEach(value -> values.add(Nulls.unmask(value)));
        return values;
    }

    @Override
    public Iterator<Object> iterator() {
        return values().iterator();
    }

    @Override
    public String toString() {
        return values().toString();
    }
}
