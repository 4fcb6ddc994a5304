package io.kopf4j.kits;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code metadata} of an object given as JSON maps, changed as Kopf changes a dict. The object
 * itself must be mutable; its {@code metadata}, {@code labels} and {@code ownerReferences} are put
 * back as mutable copies, so that bodies built with {@code Map.of(...)} inside can be adjusted too.
 */
final class JsonMetadata implements ObjectMetadata {
    private final Map<String, Object> object;

    JsonMetadata(Map<String, Object> object) {
        this.object = object;
    }

    @Override
    public void appendOwnerReference(Map<String, Object> reference) {
        Map<String, Object> metadata = section(object, "metadata");
        List<Object> references = ownerReferences(metadata);
        Object uid = reference.get("uid");
        if (references.stream().noneMatch(existing -> hasUid(existing, uid))) {
            references.add(new LinkedHashMap<>(reference));
        }
    }

    @Override
    public void removeOwnerReference(String uid) {
        ownerReferences(section(object, "metadata")).removeIf(existing -> hasUid(existing, uid));
    }

    @Override
    public void label(Map<String, String> labels, boolean forced) {
        Map<String, Object> existing = section(section(object, "metadata"), "labels");
        labels.forEach((key, value) -> {
            if (forced || !existing.containsKey(key)) {
                existing.put(key, value);
            }
        });
    }

    @Override
    public void harmonizeNaming(String name, boolean forced, boolean strict) {
        boolean noname = !(object.get("metadata") instanceof Map<?, ?> metadata)
                || !metadata.containsKey("name") && !metadata.containsKey("generateName");
        if (forced || noname) {
            Map<String, Object> metadata = section(object, "metadata");
            if (strict) {
                metadata.put("name", name);
                metadata.remove("generateName");
            } else {
                metadata.put("generateName", name + "-");
                metadata.remove("name");
            }
        }
    }

    @Override
    public void adjustNamespace(String namespace, boolean forced) {
        boolean absent = !(object.get("metadata") instanceof Map<?, ?> metadata) || metadata.get("namespace") == null;
        if (forced || absent) {
            section(object, "metadata").put("namespace", namespace);
        }
    }

    /** Kopf's {@code ref.get('uid') == uid}: references are the same owner's by uid alone. */
    private static boolean hasUid(Object reference, Object uid) {
        return reference instanceof Map<?, ?> map && Objects.equals(map.get("uid"), uid);
    }

    /** Kopf's {@code setdefault(key, {})}, as a mutable copy put back. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(Map<String, Object> parent, String key) {
        Map<String, Object> section = parent.get(key) instanceof Map<?, ?> map
                ? new LinkedHashMap<>((Map<String, Object>) map) : new LinkedHashMap<>();
        parent.put(key, section);
        return section;
    }

    /** Kopf's {@code setdefault('ownerReferences', [])}, as a mutable copy put back. */
    private static List<Object> ownerReferences(Map<String, Object> metadata) {
        List<Object> references = metadata.get("ownerReferences") instanceof List<?> list
                ? new ArrayList<>(list) : new ArrayList<>();
        metadata.put("ownerReferences", references);
        return references;
    }
}
