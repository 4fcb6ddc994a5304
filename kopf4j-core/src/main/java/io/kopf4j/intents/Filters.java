package io.kopf4j.intents;

import io.kopf4j.Filter;
import io.kopf4j.HandlerContext;
import io.kopf4j.structs.Dicts;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which objects a handler is for, beyond the resource: Kopf's filters. Labels and annotations
 * (all must hold), a field's value (in the old or the new state, for changing handlers), the
 * field's old and new values separately, and {@code when} predicates, evaluated last.
 *
 * @param labels conditions by label key
 * @param annotations conditions by annotation key
 * @param field the field the value conditions are about (dotted path split), or null
 * @param value the field's value in the old or new state; null: the field must merely be present
 * @param old the field's value before the change, or null
 * @param current the field's value after the change, or null
 * @param when predicates on the handler context
 */
public record Filters(Map<String, Condition> labels, Map<String, Condition> annotations, List<String> field,
                      Condition value, Condition old, Condition current, List<Filter> when) {
    public static final Filters NONE = new Filters(Map.of(), Map.of(), null, null, null, null, List.of());

    public Filters {
        labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));   // declaration order, for stable selectors
        annotations = Collections.unmodifiableMap(new LinkedHashMap<>(annotations));
        when = List.copyOf(when);
    }

    /** Parses {@code "key=value"}, {@code "key"} (present) and {@code "!key"} (absent). */
    public static Map<String, Condition> parseKeys(String[] entries) {
        Map<String, Condition> conditions = new LinkedHashMap<>();
        for (String entry : entries) {
            int equals = entry.indexOf('=');
            if (entry.startsWith("!")) {
                conditions.put(entry.substring(1), new Condition.Absent());
            } else if (equals < 0) {
                conditions.put(entry, new Condition.Present());
            } else {
                conditions.put(entry.substring(0, equals), new Condition.Exact(entry.substring(equals + 1)));
            }
        }
        return conditions;
    }

    /**
     * Whether the object passes, not counting whether the field changed.
     *
     * @param oldEssence the last handled essence (changing handlers), or null
     * @param newEssence the current essence, or the body for others
     */
    public boolean matches(HandlerContext context, Map<String, Object> oldEssence, Map<String, Object> newEssence) {
        return matchKeys(labels, context.labels()) && matchKeys(annotations, context.annotations())
                && matchValue(oldEssence, newEssence) && matchOldNew(oldEssence, newEssence)
                && when.stream().allMatch(filter -> filter.test(context));
    }

    private static boolean matchKeys(Map<String, Condition> conditions, Map<String, String> actual) {
        return conditions.entrySet().stream().allMatch(e -> e.getValue().test(actual.get(e.getKey())));
    }

    private boolean matchValue(Map<String, Object> oldEssence, Map<String, Object> newEssence) {
        if (field == null) {
            return true;
        }
        Condition condition = value == null ? new Condition.Present() : value;
        return condition.test(resolve(oldEssence)) || condition.test(resolve(newEssence));
    }

    private boolean matchOldNew(Map<String, Object> oldEssence, Map<String, Object> newEssence) {
        return (old == null || old.test(resolve(oldEssence))) && (current == null || current.test(resolve(newEssence)));
    }

    private Object resolve(Map<String, Object> essence) {
        return essence == null ? null : Dicts.resolve(essence, field, null);
    }
}
