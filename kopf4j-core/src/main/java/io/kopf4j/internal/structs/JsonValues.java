package io.kopf4j.internal.structs;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Reading JSON values (as parsed: maps, lists, strings, numbers, booleans) as the Java types a
 * caller expects, with errors that name the field and both types.
 */
public final class JsonValues {
    private JsonValues() {
    }

    /**
     * The value at a dotted path ({@code database.replicas}) under {@code root}.
     *
     * @param root the map to start from
     * @param where the root's own path, for messages ({@code spec}; empty for the whole object)
     * @param path the dotted path
     * @return the value, or null if a step is missing
     * @throws IllegalArgumentException if a step on the way is not a map
     */
    public static Object at(Map<String, ?> root, String where, String path) {
        Object current = root;
        String walked = where;
        for (String key : Dicts.parseField(path)) {
            Map<?, ?> map = as(current, Map.class, walked);
            current = map.get(key);
            walked = walked.isEmpty() ? key : walked + "." + key;
            if (current == null) {
                return null;
            }
        }
        return current;
    }

    /**
     * The value as {@code type}: {@code Integer} and {@code Long} from whole numbers in their range,
     * {@code Double} from any number, {@code String}, {@code Boolean}, {@code Map} and {@code List}
     * only from values of that kind; maps and lists read-only.
     *
     * @param value the JSON value, not null
     * @param type one of Integer, Long, Double, String, Boolean, Map, List
     * @param where the value's path, for messages
     * @param <T> the type
     * @return the value as {@code type}
     * @throws IllegalArgumentException naming the path and both types if the value does not fit
     */
    @SuppressWarnings("unchecked")
    public static <T> T as(Object value, Class<T> type, String where) {
        try {
            Object typed = switch (type.getSimpleName()) {
                case "Integer" -> value instanceof Number number ? exact(number).intValueExact() : null;
                case "Long" -> value instanceof Number number ? exact(number).longValueExact() : null;
                case "Double" -> value instanceof Number number ? number.doubleValue() : null;
                case "Map" -> value instanceof Map<?, ?> map ? Collections.unmodifiableMap(map) : null;
                case "List" -> value instanceof List<?> list ? Collections.unmodifiableList(list) : null;
                default -> type.isInstance(value) ? value : null;
            };
            if (typed != null) {
                return (T) typed;
            }
        } catch (ArithmeticException notWholeOrTooBig) {
            // reported below, as any other mismatch
        }
        throw new IllegalArgumentException((where.isEmpty() ? "the object" : where) + ": expected " + name(type)
                + ", but the value is a " + value.getClass().getSimpleName() + ": " + Json.compact(value));
    }

    private static BigDecimal exact(Number number) {
        return new BigDecimal(number.toString());
    }

    private static String name(Class<?> type) {
        return switch (type.getSimpleName()) {
            case "Integer" -> "an int";
            case "Long" -> "a long";
            case "Double" -> "a number";
            case "Boolean" -> "a boolean";
            default -> "a " + type.getSimpleName();
        };
    }
}
