package io.kopf4j.internal.engines.conversion;

import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a version cannot hold, kept in the object so that a round trip loses nothing (Cluster API's
 * {@code conversion-data} convention): the annotation {@value #ANNOTATION} holds, per version, the
 * fields of that version that were lost on the way to the object's current version, each with its
 * value and with what the way back made of it. When the object is converted back to that version,
 * each field is restored if the way back still makes the same of it: a field that the other
 * version shows and that somebody changed there stays as changed.
 *
 * <pre>{@code
 * {"v1": [{"path": ["spec", "size", "unit"], "value": "Mi", "was": "Gi"}]}
 * }</pre>
 */
final class ConversionData {
    /** The annotation's key. */
    static final String ANNOTATION = "kopf4j.dev/conversion-data";
    /** kopf4j's own, never compared: the objects' identity and this record. */
    private static final Set<String> SKIPPED = Set.of("apiVersion", "kind", "metadata");
    private static final List<String> PATH = List.of("metadata", "annotations", ANNOTATION);

    private final Map<String, Object> byVersion;

    private ConversionData(Map<String, Object> byVersion) {
        this.byVersion = byVersion;
    }

    /** {@return the record an object carries; empty if none, or if it is not kopf4j's JSON} */
    static ConversionData of(Map<String, Object> object) {
        Object text = Dicts.resolve(object, PATH, null);
        if (text instanceof String json) {
            try {
                return new ConversionData(Json.parseMap(json));
            } catch (IllegalArgumentException e) {
                return new ConversionData(new LinkedHashMap<>());   // garbage from elsewhere: replaced
            }
        }
        return new ConversionData(new LinkedHashMap<>());
    }

    /**
     * Puts back into an object converted to {@code version} the fields that version lost earlier,
     * where the conversion made of them what it made the last time; then forgets them.
     */
    @SuppressWarnings("unchecked")
    void restore(String version, Map<String, Object> converted) {
        if (!(byVersion.remove(version) instanceof List<?> entries)) {
            return;
        }
        for (Object item : entries) {
            if (item instanceof Map<?, ?> entry && entry.get("path") instanceof List<?> rawPath && !rawPath.isEmpty()
                    && rawPath.stream().allMatch(String.class::isInstance) && !SKIPPED.contains(rawPath.getFirst())) {
                List<String> path = (List<String>) rawPath;
                Object now = Dicts.resolve(converted, path, ABSENT);
                Object was = entry.containsKey("was") ? entry.get("was") : ABSENT;
                if ((now == ABSENT ? was == ABSENT : was != ABSENT && Json.equal(now, was)) && mapsAlong(converted, path)) {
                    Dicts.ensure(converted, path, Json.deepCopy(entry.get("value")));
                }
            }
        }
    }

    /** Restores only into maps or missing stanzas, never over a value of another shape on the way. */
    private static boolean mapsAlong(Map<String, Object> object, List<String> path) {
        Object current = object;
        for (String key : path.subList(0, path.size() - 1)) {
            current = ((Map<?, ?>) current).get(key);
            if (current == null) {
                return true;
            }
            if (!(current instanceof Map<?, ?>)) {
                return false;
            }
        }
        return true;
    }

    /** Forgets what a version lost. */
    void forget(String version) {
        byVersion.remove(version);
    }

    /** Forgets the records of versions no conversion knows any more (dropped from the operator). */
    void retainOnly(Collection<String> versions) {
        byVersion.keySet().retainAll(versions);
    }

    /**
     * Records what {@code version} loses: the fields of {@code original} that the way back
     * ({@code roundTrip}) does not give again, or gives otherwise.
     */
    void record(String version, Map<String, Object> original, Map<String, Object> roundTrip) {
        List<Object> lost = new ArrayList<>();
        for (Map.Entry<String, Object> field : original.entrySet()) {
            if (!SKIPPED.contains(field.getKey())) {
                compare(List.of(field.getKey()), field.getValue(), roundTrip.containsKey(field.getKey())
                        ? roundTrip.get(field.getKey()) : ABSENT, lost);
            }
        }
        if (lost.isEmpty()) {
            forget(version);
        } else {
            byVersion.put(version, lost);
        }
    }

    private static void compare(List<String> path, Object value, Object back, List<Object> lost) {
        if (value instanceof Map<?, ?> map && back instanceof Map<?, ?> backMap) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                List<String> next = new ArrayList<>(path);
                next.add((String) entry.getKey());
                compare(next, entry.getValue(), backMap.containsKey(entry.getKey()) ? backMap.get(entry.getKey()) : ABSENT,
                        lost);
            }
        } else if (back == ABSENT || !Json.equal(value, back)) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("path", path);
            entry.put("value", value);
            if (back != ABSENT) {
                entry.put("was", back);
            }
            lost.add(entry);
        }
    }

    /** {@return the record's JSON, or null if nothing is kept} */
    String json() {
        return byVersion.isEmpty() ? null : Json.compact(byVersion);
    }

    /** Writes the record into the object's annotations, or removes the annotation if nothing is kept. */
    @SuppressWarnings("unchecked")
    void writeTo(Map<String, Object> object) {
        String json = json();
        if (json == null) {
            Dicts.remove(object, PATH);
            if (!(object.get("metadata") instanceof Map<?, ?>)) {
                object.put("metadata", new LinkedHashMap<>());   // Dicts.remove drops an emptied stanza
            }
        } else {
            Dicts.ensure(object, PATH, json);
        }
    }

    /** A field that is not there (a JSON null is a value). */
    private static final Object ABSENT = new Object();
}
