package io.kopf4j;

import io.kopf4j.internal.structs.Json;
import java.util.function.Predicate;

/**
 * One filter condition on a value (a label, an annotation, a field): Kopf's exact value,
 * {@code kopf.PRESENT}, {@code kopf.ABSENT}, or a predicate, which gets null for an absent value.
 * The builders' filter options ({@link HandlerOptions#label(String, String)} and the like) record
 * them in the {@link HandlerDescription}.
 *
 * <pre>{@code
 * new Condition.Exact("3").test(3);              // true: "3" is JSON for 3
 * new Condition.Absent().test(null);             // true
 * new Condition.Matching(v -> v != null).test("web");
 * }</pre>
 */
public sealed interface Condition {
    /**
     * Whether the value passes.
     *
     * @param value the label's or annotation's text, or the field's value as parsed from JSON; null when absent
     * @return true if it passes
     */
    boolean test(Object value);

    /** The value must be present, with any value ({@code kopf.PRESENT}). */
    record Present() implements Condition {
        @Override
        public boolean test(Object value) {
            return value != null;
        }
    }

    /** The value must be absent ({@code kopf.ABSENT}). */
    record Absent() implements Condition {
        @Override
        public boolean test(Object value) {
            return value == null;
        }
    }

    /**
     * Equal as text, or as JSON if the text is JSON: {@code "3"} matches 3, {@code "web"} matches "web".
     *
     * @param text the value as written
     */
    record Exact(String text) implements Condition {
        @Override
        public boolean test(Object value) {
            if (value == null) {
                return false;
            }
            if (text.equals(String.valueOf(value))) {
                return true;
            }
            try {
                return Json.equal(Json.mapper().readValue(text, Object.class), value);
            } catch (java.io.IOException notJson) {
                return false;
            }
        }
    }

    /**
     * The value must pass the predicate.
     *
     * @param predicate tests the value, null when absent
     */
    record Matching(Predicate<Object> predicate) implements Condition {
        @Override
        public boolean test(Object value) {
            return predicate.test(value);
        }
    }
}
