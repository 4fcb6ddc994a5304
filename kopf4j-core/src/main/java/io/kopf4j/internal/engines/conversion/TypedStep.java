package io.kopf4j.internal.engines.conversion;

import io.kopf4j.internal.actions.HandlerState;
import io.kopf4j.internal.intents.ConversionHandler;
import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.structs.TypedJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One conversion of one object, from JSON to JSON through the user's classes: the source JSON is
 * read into the source version's class, the user's method makes the target, and kopf4j writes it
 * back with the target's {@code apiVersion} and {@code kind} and the source's metadata (the API
 * server lets a conversion change only labels and annotations, so the result's are kept if it has
 * any). Fields of the source that its class does not hold (Kopf's {@code status.<handler id>}, data
 * under {@code x-kubernetes-preserve-unknown-fields}) are carried to the same place in the result
 * when it has nothing there: a class declares only what it needs, as handlers' types do.
 *
 * <pre>{@code
 * Map<String, Object> v1 = TypedStep.apply(up, v1alpha1Json);
 * }</pre>
 */
final class TypedStep {
    /** Set by kopf4j itself, never carried from the source as unknown. */
    private static final Set<String> OWN = Set.of("apiVersion", "kind", "metadata");

    private TypedStep() {
    }

    /**
     * Converts one object by one conversion.
     *
     * @param step the conversion
     * @param source the object in the step's source version; not changed
     * @return the object in the step's target version, as new JSON maps
     * @throws ConversionFailure with the user's message, or why the JSON does not fit a class
     */
    static Map<String, Object> apply(ConversionHandler step, Map<String, Object> source) {
        Object typed;
        try {
            typed = TypedJson.convert(source, TypedJson.type(step.from().type()), "");
        } catch (IllegalArgumentException e) {
            throw new ConversionFailure(e.getMessage(), e);
        }
        Object converted;
        try {
            converted = step.function().apply(typed);
        } catch (RuntimeException | StackOverflowError | LinkageError | AssertionError e) {
            // Whatever a conversion throws is the API server's answer for this request, never the server's fault.
            throw new ConversionFailure(HandlerState.messageOf(e), e);
        }
        if (converted == null) {
            throw new ConversionFailure("Conversion " + step.origin() + " returned null");
        }
        Map<String, Object> fields;
        Map<String, Object> known;
        try {
            fields = TypedJson.fieldsOf(converted);
            known = TypedJson.fieldsOf(typed);
        } catch (RuntimeException e) {
            throw new ConversionFailure("Conversion " + step.origin() + " returned what cannot be written as JSON: "
                    + e.getMessage(), e);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("apiVersion", step.to().apiVersion());
        result.put("kind", step.to().kind());
        result.put("metadata", metadata(source, fields));
        fields.forEach((key, value) -> {
            if (!OWN.contains(key)) {
                result.put(key, value);
            }
        });
        carryUnknown(source, known, result);
        return result;
    }

    /** Whether the object fits the step's target class (a restored field of another type would not). */
    static boolean fitsTarget(ConversionHandler step, Map<String, Object> object) {
        try {
            TypedJson.convert(object, TypedJson.type(step.to().type()), "");
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The source's metadata, with the result's labels and annotations if it set them. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> metadata(Map<String, Object> source, Map<String, Object> result) {
        Map<String, Object> metadata = source.get("metadata") instanceof Map<?, ?> map
                ? Json.deepCopy((Map<String, Object>) map) : new LinkedHashMap<>();
        if (result.get("metadata") instanceof Map<?, ?> own) {
            for (String key : List.of("labels", "annotations")) {
                if (own.get(key) instanceof Map<?, ?> values) {
                    metadata.put(key, Json.deepCopy(values));
                }
            }
        }
        return metadata;
    }

    /** Copies into the result what the source has and its class dropped, where the result has nothing. */
    private static void carryUnknown(Map<String, Object> source, Map<String, Object> known, Map<String, Object> result) {
        for (Map.Entry<String, Object> field : source.entrySet()) {
            if (!OWN.contains(field.getKey())) {
                carry(List.of(field.getKey()), field.getValue(), known.get(field.getKey()), known.containsKey(field.getKey()),
                        result);
            }
        }
    }

    private static void carry(List<String> path, Object value, Object known, boolean isKnown, Map<String, Object> result) {
        if (!isKnown) {
            if (!Dicts.contains(result, path) && parentIsMap(result, path)) {
                Dicts.ensure(result, path, Json.deepCopy(value));
            }
            return;
        }
        if (value instanceof Map<?, ?> map && known instanceof Map<?, ?> knownMap) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                List<String> next = new ArrayList<>(path);
                next.add((String) entry.getKey());
                carry(next, entry.getValue(), knownMap.get(entry.getKey()), knownMap.containsKey(entry.getKey()), result);
            }
        }
    }

    /** A field is carried only into a map or a missing stanza, never over a value of another shape. */
    private static boolean parentIsMap(Map<String, Object> result, List<String> path) {
        Object current = result;
        for (String key : path.subList(0, path.size() - 1)) {
            if (!(current instanceof Map<?, ?> map)) {
                return false;
            }
            current = map.get(key);
            if (current == null) {
                return true;
            }
        }
        return current instanceof Map<?, ?>;
    }
}
