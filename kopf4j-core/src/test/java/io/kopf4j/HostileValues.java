package io.kopf4j;

import io.kopf4j.internal.structs.Json;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.instancio.Random;

/**
 * Generators of what an operator cannot choose, on Instancio's seeded {@link Random} (a failing
 * property reports its seed, and {@code @Seed} replays it): JSON values of any shape (types where
 * others are expected, unicode beyond the basic plane, long texts, big and odd numbers), nested as
 * deep as wanted, and texts that pretend to be JSON. For the hostile-input properties of the packages.
 *
 * <pre>{@code
 * @ParameterizedTest
 * @InstancioSource(samples = 200)
 * void anyValue(@Given(AnyJson.class) Object value) { ... }
 *
 * static final class AnyJson implements GivenProvider {
 *     public Object provide(ElementContext context) { return HostileValues.json(context.random(), 4); }
 * }
 * }</pre>
 */
public final class HostileValues {
    private static final String SPECIAL = "\"\\/{}[]:,\u0000\u001f\u2028\u007f";
    private static final List<String> JSON_LOOKALIKES = List.of("", "null", "true", "[]", "{}", "0", "-0", "1e309", "NaN");

    private HostileValues() {
    }

    /**
     * A text of any code points (controls, quotes, backslashes, beyond the basic plane), up to 200
     * characters. No unpaired surrogate: the API server sends UTF-8, in which there is none (Go turns
     * an escaped one into U+FFFD).
     */
    public static String text(Random random) {
        StringBuilder text = new StringBuilder();
        int kind = random.intRange(0, 4);
        if (kind == 4) {
            return random.oneOf(JSON_LOOKALIKES);
        }
        int length = random.intRange(0, kind == 3 ? 200 : 20);
        for (int i = 0; i < length; i++) {
            switch (kind) {
                case 0 -> text.append(SPECIAL.charAt(random.intRange(0, SPECIAL.length() - 1)));
                case 1 -> text.appendCodePoint(random.intRange(0x10000, 0x10FFFF));
                case 2 -> text.append(random.alphanumericCharacter());
                default -> {
                    char c = random.characterRange('\u0000', '\ufffd');
                    text.append(Character.isSurrogate(c) ? '\ufffd' : c);
                }
            }
        }
        return text.toString();
    }

    /** A scalar: a text, an integer of any size, a fraction, a boolean, or null. */
    public static Object scalar(Random random) {
        return switch (random.intRange(0, 6)) {
            case 0 -> text(random);
            case 1 -> random.intRange(Integer.MIN_VALUE, Integer.MAX_VALUE);
            case 2 -> random.longRange(Long.MIN_VALUE, Long.MAX_VALUE);
            case 3 -> new BigInteger(random.digits(random.intRange(1, 40))).negate();
            case 4 -> random.doubleRange(-1e300, 1e300);
            case 5 -> random.trueOrFalse();
            default -> null;
        };
    }

    /** A JSON value of maps and lists, up to {@code depth} levels, of any keys and scalars. */
    public static Object json(Random random, int depth) {
        int kind = depth <= 0 ? 0 : random.intRange(0, 6);
        if (kind <= 2) {
            return scalar(random);
        }
        int size = random.intRange(0, 5);
        if (kind <= 4) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (int i = 0; i < size; i++) {
                map.put(text(random), json(random, depth - 1));
            }
            return map;
        }
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            list.add(json(random, depth - 1));
        }
        return list;
    }

    /** {@code {"n":{"n":...}}}: a map nested this deep, as Java maps (for values, not JSON texts). */
    public static Map<String, Object> nested(int levels) {
        Map<String, Object> top = new LinkedHashMap<>();
        Map<String, Object> current = top;
        for (int level = 1; level < levels; level++) {
            Map<String, Object> next = new LinkedHashMap<>();
            current.put("n", next);
            current = next;
        }
        return top;
    }

    /** A text such as a Kopf annotation holds, or the garbage that may be there instead. */
    public static String annotationText(Random random) {
        return switch (random.intRange(0, 2)) {
            case 0 -> text(random);
            case 1 -> Json.compact(json(random, 3));
            default -> random.oneOf("{\"started\":\"garbage\",\"retries\":\"many\",\"success\":\"no\",\"subrefs\":\"x\"}",
                    "{\"spec\":", "[\"a\"]", "{\"spec\":{\"a\":1}}\n", "{\"retries\":1e400}", "null",
                    "{\"started\":\"2020-12-31T23:59:59.123456+00:00\",\"delayed\":123}");
        };
    }
}
