package io.kopf4j.storage;

import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.structs.SecretValues;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds an object's essence exactly as Kopf does: the body without {@code apiVersion},
 * {@code kind}, {@code status} and system metadata, keeping labels and annotations but not the
 * annotations of Kopf-style operators (kopf4j's, Kopf's, or any marked {@code kopf-managed}) nor
 * kubectl's {@code last-applied-configuration}; empty stanzas dropped. Field order follows Kopf
 * (the body's own fields first, then {@code metadata}), so the stored JSON matches Kopf's. A Secret's
 * values are digests in it ({@link SecretValues}): a change is seen, the value is not stored.
 *
 * <pre>{@code
 * Map<String, Object> essence = new Essence(new AnnotationPrefixes(AnnotationPrefixes.KOPF_PREFIX)).of(body);
 * }</pre>
 */
public final class Essence {
    private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private final AnnotationPrefixes prefixes;
    private final List<List<String>> ignoredFields;

    /**
     * The essence with no ignored fields.
     *
     * @param prefixes the operator's annotation prefixes, whose annotations are left out of the essence
     */
    public Essence(AnnotationPrefixes prefixes) {
        this(prefixes, List.of());
    }

    /**
     * The essence without some fields.
     *
     * @param prefixes the operator's annotation prefixes, whose annotations are left out of the essence
     * @param ignoredFields dotted field paths left out of the essence: changes to them are not changes
     */
    public Essence(AnnotationPrefixes prefixes, List<String> ignoredFields) {
        this.prefixes = prefixes;
        this.ignoredFields = ignoredFields.stream().map(Dicts::parseField).toList();
    }

    /**
     * The essence of an object's body.
     *
     * @param body the object's body, as watched; it is not changed
     * @return a new mutable map: the body's own fields (no {@code status}), then the essential {@code metadata}
     */
    public Map<String, Object> of(Map<String, Object> body) {
        return of(body, Set.of());
    }

    /**
     * The essence with the handlers' fields kept even where the essence has no place for them (e.g.
     * {@code status.phase} of a field handler), as Kopf's {@code extra_fields}: so that a change there
     * is a change.
     *
     * @param body the object's body, as watched; it is not changed
     * @param extraFields field paths (split) to copy from the body into the essence
     * @return a new mutable map, as {@link #of(Map)}, with the extra fields that the body has
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> of(Map<String, Object> body, Collection<List<String>> extraFields) {
        Map<String, Object> essence = Json.deepCopy(body);
        essence.remove("apiVersion");
        essence.remove("kind");
        essence.remove("status");
        Object rawMetadata = essence.remove("metadata");

        Map<String, Object> metadata = new LinkedHashMap<>();
        if (rawMetadata instanceof Map<?, ?> original) {
            Object labels = original.get("labels");
            if (labels instanceof Map<?, ?> map && !map.isEmpty()) {
                metadata.put("labels", labels);
            }
            Object annotations = original.get("annotations");
            if (annotations instanceof Map<?, ?> map) {
                Map<String, Object> kept = new LinkedHashMap<>((Map<String, Object>) map);
                kept.keySet().removeIf(key -> key.equals(LAST_APPLIED) || prefixes.isOperatorKey(key, map));
                if (!kept.isEmpty()) {
                    metadata.put("annotations", kept);
                }
            }
        }
        if (!metadata.isEmpty()) {
            essence.put("metadata", metadata);
        }
        cherryPick(body, essence, extraFields);
        removeEmptyStanzas(essence);
        ignoredFields.forEach(field -> Dicts.remove(essence, field));
        if (SecretValues.isSecret(body)) {
            SecretValues.digestInPlace(essence, SecretValues.uidOf(body));   // the values never go into the annotation
        }
        return essence;
    }

    /** Copies the fields present in the body into the essence, as Kopf's {@code dicts.cherrypick}. */
    static void cherryPick(Map<String, Object> body, Map<String, Object> essence, Collection<List<String>> fields) {
        for (List<String> field : fields) {
            if (Dicts.contains(body, field)) {
                Dicts.ensure(essence, field, Json.deepCopy(Dicts.resolve(body, field, null)));
            }
        }
    }

    /** Drops empty labels, annotations, metadata and status, as Kopf does before comparing. */
    static void removeEmptyStanzas(Map<String, Object> essence) {
        if (essence.get("metadata") instanceof Map<?, ?> metadata) {
            metadata.entrySet().removeIf(e -> (e.getKey().equals("labels") || e.getKey().equals("annotations"))
                    && e.getValue() instanceof Map<?, ?> map && map.isEmpty());
            if (metadata.isEmpty()) {
                essence.remove("metadata");
            }
        }
        if (essence.get("status") instanceof Map<?, ?> status && status.isEmpty()) {
            essence.remove("status");
        }
    }
}
