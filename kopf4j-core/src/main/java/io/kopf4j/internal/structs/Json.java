package io.kopf4j.internal.structs;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON as Kopf writes it: compact ({@code separators=(',', ':')}), keys in insertion order, and,
 * for values stored on objects, non-ASCII escaped as Python's {@code json.dumps} does, so that
 * annotations written by kopf4j and by Kopf are the same bytes.
 */
public final class Json {
    private static final ObjectMapper MAPPER = JsonMapper.builder(factory()).build();
    private static final ObjectMapper ASCII_MAPPER = JsonMapper.builder(factory()).build();
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    static {
        ASCII_MAPPER.getFactory().setCharacterEscapes(new PythonAsciiEscapes());
    }

    private Json() {
    }

    /**
     * Jackson's buffers recycled through a shared pool rather than its default, one per thread:
     * kopf4j reads and writes JSON on virtual threads, a new one per object's cycle, so a
     * per-thread pool never recycles and every parse or write allocated its buffers afresh (8 to
     * 16 KB), as Jackson's docs warn for virtual threads.
     */
    private static JsonFactory factory() {
        return JsonFactory.builder().recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool()).build();
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** Compact JSON, UTF-8 characters as they are. */
    public static String compact(Object value) {
        return write(MAPPER, value);
    }

    /** Compact JSON as UTF-8 bytes, as {@link #parseMap(byte[])} reads them back. */
    public static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot serialise to JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Compact JSON with non-ASCII characters escaped, byte-compatible with Python's json.dumps. */
    public static String compactAscii(Object value) {
        return write(ASCII_MAPPER, value);
    }

    /**
     * JSON as Python's {@code json.dumps(value)} writes it by default: non-ASCII characters escaped,
     * {@code ", "} and {@code ": "} between items. For payloads whose bytes Kopf fixes, such as the
     * base64 JSON Patch of admission responses.
     */
    public static String pythonDumps(Object value) {
        try {
            return ASCII_MAPPER.writer(new PythonSeparators()).writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not serializable as JSON: " + e.getMessage(), e);
        }
    }

    /** Python's default separators, on one line: Jackson's minimal printer with a space after commas and colons. */
    private static final class PythonSeparators extends com.fasterxml.jackson.core.util.MinimalPrettyPrinter {
        private static final long serialVersionUID = 1L;

        @Override
        public void writeObjectFieldValueSeparator(com.fasterxml.jackson.core.JsonGenerator g) throws java.io.IOException {
            g.writeRaw(": ");
        }

        @Override
        public void writeObjectEntrySeparator(com.fasterxml.jackson.core.JsonGenerator g) throws java.io.IOException {
            g.writeRaw(", ");
        }

        @Override
        public void writeArrayValueSeparator(com.fasterxml.jackson.core.JsonGenerator g) throws java.io.IOException {
            g.writeRaw(", ");
        }
    }

    /**
     * A value as Python's {@code repr} prints it ({@code {'spec': {'size': 1}, 'done': True}}), for the
     * log lines in which Kopf shows patches, so that they read the same in both.
     */
    public static String pythonRepr(Object value) {
        StringBuilder out = new StringBuilder();
        appendRepr(out, value);
        return out.toString();
    }

    private static void appendRepr(StringBuilder out, Object value) {
        if (value == null) {
            out.append("None");
        } else if (value instanceof Boolean flag) {
            out.append(flag ? "True" : "False");
        } else if (value instanceof CharSequence text) {
            appendString(out, text.toString());
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            String separator = "";
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(separator);
                appendRepr(out, entry.getKey());
                out.append(": ");
                appendRepr(out, entry.getValue());
                separator = ", ";
            }
            out.append('}');
        } else if (value instanceof Iterable<?> items) {
            out.append('[');
            String separator = "";
            for (Object item : items) {
                out.append(separator);
                appendRepr(out, item);
                separator = ", ";
            }
            out.append(']');
        } else {
            out.append(value);
        }
    }

    /** Python quotes with ' unless the text has a ' and no ". */
    private static void appendString(StringBuilder out, String text) {
        char quote = text.indexOf('\'') >= 0 && text.indexOf('"') < 0 ? '"' : '\'';
        out.append(quote);
        for (char c : text.toCharArray()) {
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c == quote) {
                        out.append('\\');
                    }
                    out.append(c);
                }
            }
        }
        out.append(quote);
    }

    public static Map<String, Object> parseMap(String json) {
        try {
            return MAPPER.readValue(json, MAP);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON object: " + e.getOriginalMessage(), e);
        }
    }

    /** Parses a JSON object from its UTF-8 bytes, as an API server answers. */
    public static Map<String, Object> parseMap(byte[] json) {
        return parseMap(json, 0, json.length);
    }

    /** Parses a JSON object from a range of UTF-8 bytes: one line of a watch stream, in the buffer it came in. */
    public static Map<String, Object> parseMap(byte[] json, int offset, int length) {
        try {
            return MAPPER.readValue(json, offset, length, MAP);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a JSON object: " + e.getMessage(), e);
        }
    }

    /** A deep, mutable copy of a JSON-like value (maps, lists, scalars). */
    @SuppressWarnings("unchecked")
    public static <T> T deepCopy(T value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put((String) k, deepCopy(v)));
            return (T) copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(v -> copy.add(deepCopy(v)));
            return (T) copy;
        }
        return value;
    }

    /** A deep copy without maps that are empty (or become empty once their empty maps are gone). */
    public static Map<String, Object> withoutEmptyMaps(Map<String, Object> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((key, value) -> {
            if (value instanceof Map<?, ?> nested) {
                @SuppressWarnings("unchecked")
                Map<String, Object> pruned = withoutEmptyMaps((Map<String, Object>) nested);
                if (!pruned.isEmpty()) {
                    copy.put(key, pruned);
                }
            } else {
                copy.put(key, deepCopy(value));
            }
        });
        return copy;
    }

    /**
     * JSON equality: maps by entries, lists by position, numbers by value ({@code 1 == 1.0}, as in
     * Python), so that re-parsed values do not produce phantom diffs.
     */
    public static boolean equal(Object a, Object b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        if (a instanceof Number x && b instanceof Number y) {
            return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (Map.Entry<?, ?> entry : x.entrySet()) {
                if (!y.containsKey(entry.getKey()) || !equal(entry.getValue(), y.get(entry.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!equal(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    private static String write(ObjectMapper mapper, Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot serialise to JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Python's {@code json.dumps} escapes: every non-ASCII UTF-16 unit as {@code \\u} and 4 lowercase hex digits. */
    private static final class PythonAsciiEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] ascii = standardAsciiEscapesForJSON();

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return ch > 0x7F ? new SerializedString(String.format("\\u%04x", ch)) : null;
        }
    }
}
