package io.kopf4j.internal.engines.children;

import io.kopf4j.internal.structs.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether an apply would change a child, decided without a request: the live child is cut down to
 * the fields this operator's field manager owns (its {@code Apply} entry of {@code managedFields},
 * in the {@code FieldsV1} format: {@code f:name}, {@code k:{...}} for a list element by its keys,
 * {@code v:...} for a set's value, {@code i:n} by index) and compared with what would be applied.
 * Fields others own (a controller's status, a defaulted field, a user's annotation) are outside the
 * comparison, as they are outside the apply. The Java Operator SDK's SSA matcher does the same;
 * there is no library for it in Java, which is why it is written here.
 *
 * <pre>{@code
 * boolean same = OwnedFields.unchanged(desired, live, "kopf4j");   // no PATCH when true
 * }</pre>
 */
final class OwnedFields {
    private OwnedFields() {
    }

    /**
     * {@return whether applying {@code desired} as {@code fieldManager} would leave {@code live} as it is}
     * False when in doubt: no live object, no {@code Apply} entry of this manager, one of another
     * version (its fields may be named otherwise).
     *
     * @param desired the child as it would be applied ({@link DesiredChildren.Child#body()})
     * @param live the child as last seen, with its {@code managedFields}
     * @param fieldManager this operator's field manager
     */
    static boolean unchanged(Map<String, Object> desired, Map<String, Object> live, String fieldManager) {
        if (live == null) {
            return false;
        }
        Map<String, Object> owned = null;
        Object entries = map(live.get("metadata")).get("managedFields");
        if (entries instanceof List<?> list) {
            for (Object item : list) {
                Map<String, Object> entry = map(item);
                if (fieldManager.equals(entry.get("manager")) && "Apply".equals(entry.get("operation"))) {
                    if (owned != null || !String.valueOf(desired.get("apiVersion")).equals(entry.get("apiVersion"))) {
                        return false;   // two entries, or fields named by another version
                    }
                    owned = map(entry.get("fieldsV1"));
                }
            }
        }
        if (owned == null) {
            return false;
        }
        return Json.equal(project(live, owned), comparable(desired));
    }

    /** What is applied, but for what identifies the object (not among the owned fields). */
    private static Map<String, Object> comparable(Map<String, Object> desired) {
        Map<String, Object> copy = Json.deepCopy(desired);
        copy.remove("apiVersion");
        copy.remove("kind");
        Map<String, Object> metadata = map(copy.get("metadata"));
        if (!metadata.isEmpty()) {
            Map<String, Object> kept = new LinkedHashMap<>(metadata);
            kept.remove("name");
            kept.remove("namespace");
            if (kept.isEmpty()) {
                copy.remove("metadata");
            } else {
                copy.put("metadata", kept);
            }
        }
        return copy;
    }

    /** The part of {@code actual} that the fields name; an empty set of fields: the whole value. */
    static Object project(Object actual, Map<String, Object> fields) {
        if (fields.isEmpty() || actual == null) {
            return actual;
        }
        if (actual instanceof Map<?, ?> object) {
            Map<String, Object> kept = new LinkedHashMap<>();
            for (Map.Entry<String, Object> field : fields.entrySet()) {
                if (field.getKey().startsWith("f:")) {
                    String name = field.getKey().substring(2);
                    if (object.containsKey(name)) {
                        kept.put(name, project(object.get(name), map(field.getValue())));
                    }
                }
            }
            return kept;
        }
        if (actual instanceof List<?> list) {
            TreeMap<Integer, Object> kept = new TreeMap<>();   // in the live list's order
            for (Map.Entry<String, Object> field : fields.entrySet()) {
                String key = field.getKey();
                if (key.startsWith("k:")) {
                    Map<String, Object> keys = Json.parseMap(key.substring(2));
                    for (int i = 0; i < list.size(); i++) {
                        if (matches(list.get(i), keys)) {
                            kept.put(i, project(list.get(i), map(field.getValue())));
                            break;
                        }
                    }
                } else if (key.startsWith("v:")) {
                    Object value = value(key.substring(2));
                    for (int i = 0; i < list.size(); i++) {
                        if (Json.equal(list.get(i), value)) {
                            kept.put(i, list.get(i));
                            break;
                        }
                    }
                } else if (key.startsWith("i:")) {
                    int index = Integer.parseInt(key.substring(2));
                    if (index < list.size()) {
                        kept.put(index, project(list.get(index), map(field.getValue())));
                    }
                }
            }
            return new ArrayList<>(kept.values());
        }
        return actual;
    }

    /** A set element's value as FieldsV1 writes it (JSON); unreadable: matches nothing. */
    private static Object value(String json) {
        try {
            return Json.mapper().readValue(json, Object.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return new Object();
        }
    }

    private static boolean matches(Object element, Map<String, Object> keys) {
        Map<String, Object> object = map(element);
        return keys.entrySet().stream().allMatch(key -> Json.equal(object.get(key.getKey()), key.getValue()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }
}
