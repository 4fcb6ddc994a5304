package io.kopf4j.intents;

import io.kopf4j.Filter;
import io.kopf4j.structs.Json;
import java.util.function.Predicate;

/**
 * One filter condition on a value (a label, an annotation, a field): Kopf's exact value,
 * {@code PRESENT}, {@code ABSENT}, or a predicate (which gets null for an absent value).
 */
public sealed interface Condition {
    boolean test(Object value);

    record Present() implements Condition {
        public boolean test(Object value) {
            return value != null;
        }
    }

    record Absent() implements Condition {
        public boolean test(Object value) {
            return value == null;
        }
    }

    /** Equal as text, or as JSON if the text is JSON: {@code "3"} matches 3, {@code "web"} matches "web". */
    record Exact(String text) implements Condition {
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

    record Matching(Predicate<Object> predicate) implements Condition {
        public boolean test(Object value) {
            return predicate.test(value);
        }
    }

    /** Parses an annotation's value: {@code <present>}, {@code <absent>}, or an exact value. */
    static Condition parse(String text) {
        return switch (text) {
            case Filter.PRESENT -> new Present();
            case Filter.ABSENT -> new Absent();
            default -> new Exact(text);
        };
    }
}
