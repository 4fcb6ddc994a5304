package io.kopf4j.internal.intents;

import io.kopf4j.Condition;
import io.kopf4j.Filter;
import io.kopf4j.HandlerContext;
import io.kopf4j.internal.structs.Dicts;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

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

    /**
     * Kopf's pre-match of a changing handler: labels, annotations, the field's value and the
     * {@code when} predicates, but not the field's old and new values, which only concern the
     * change itself. Whether an object is served at all (stealth, the finalizer) is decided on this.
     *
     * @param oldEssence the last handled essence, or null
     * @param newEssence the current essence
     */
    public boolean prematches(HandlerContext context, Map<String, Object> oldEssence, Map<String, Object> newEssence) {
        return matchKeys(labels, context::labels) && matchKeys(annotations, context::annotations)
                && matchValue(resolve(oldEssence), resolve(newEssence)) && matchWhen(context);
    }

    /** Kopf's full match of a changing handler: the pre-match and the field's old and new values. */
    public boolean matches(HandlerContext context, Map<String, Object> oldEssence, Map<String, Object> newEssence) {
        return matchKeys(labels, context::labels) && matchKeys(annotations, context::annotations)
                && matchValue(resolve(oldEssence), resolve(newEssence)) && matchOldNew(oldEssence, newEssence)
                && matchWhen(context);
    }

    /**
     * The match of a handler that sees a body, not a change (event handlers, and daemons and timers):
     * the field's value is the body's, with no old state that could be absent.
     */
    public boolean matchesBody(HandlerContext context, Map<String, Object> body) {
        return matchKeys(labels, context::labels) && matchKeys(annotations, context::annotations)
                && matchValue(resolve(body)) && matchWhen(context);
    }

    /**
     * Whether the object's labels or annotations alone rule it out, whatever its other fields: a
     * label or annotation condition of Kopf's kinds (present, absent, a value) that fails. A
     * callable condition is user code, never asked here: it does not rule out.
     */
    public boolean excludesByKeys(Map<String, String> objectLabels, Map<String, String> objectAnnotations) {
        return excludes(labels, objectLabels) || excludes(annotations, objectAnnotations);
    }

    private static boolean excludes(Map<String, Condition> conditions, Map<String, String> keys) {
        return conditions.entrySet().stream().anyMatch(e -> !(e.getValue() instanceof Condition.Matching)
                && !e.getValue().test(keys.get(e.getKey())));
    }

    /**
     * The object's labels or annotations are read only if a condition needs them: a daemon's or
     * timer's context reads its live body, which is kept as JSON bytes and parsed on a read (and
     * the parsed maps, ~4 KB per object, cached softly: on a large heap, for good).
     */
    private static boolean matchKeys(Map<String, Condition> conditions, Supplier<Map<String, String>> actual) {
        if (conditions.isEmpty()) {
            return true;
        }
        Map<String, String> keys = actual.get();
        return conditions.entrySet().stream().allMatch(e -> e.getValue().test(keys.get(e.getKey())));
    }

    /** The field's value passes in any of the states given (Kopf checks the new one first). */
    private boolean matchValue(Object... states) {
        if (field == null) {
            return true;
        }
        Condition condition = value == null ? new Condition.Present() : value;
        for (int i = states.length - 1; i >= 0; i--) {
            if (condition.test(states[i])) {
                return true;
            }
        }
        return false;
    }

    private boolean matchWhen(HandlerContext context) {
        return when.stream().allMatch(filter -> filter.test(context));
    }

    private boolean matchOldNew(Map<String, Object> oldEssence, Map<String, Object> newEssence) {
        return (old == null || old.test(resolve(oldEssence))) && (current == null || current.test(resolve(newEssence)));
    }

    private Object resolve(Map<String, Object> essence) {
        return essence == null || field == null ? null : Dicts.resolve(essence, field, null);
    }
}
