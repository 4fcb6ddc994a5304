package io.kopf4j.internal.structs;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Conversions between an object's JSON maps and Java types (records, POJOs, fabric8's models), with
 * {@link Json}'s mapper: unknown fields are ignored, so that a type declares only the fields it
 * needs; {@code java.time} values are read and written as the API server's timestamp texts; the JDK's
 * own classes (threads, streams) are never written as beans ({@link NoJdkBeans}).
 */
public final class TypedJson {
    private static final ObjectMapper MAPPER = Json.mapper().copy()
            .registerModule(new JavaTimeModule())
            .registerModule(NoJdkBeans.module())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);
    /** For handlers' values: a record's or POJO's null fields left out, a map's nulls kept (they delete fields). */
    private static final ObjectMapper VALUES = MAPPER.copy()
            .setDefaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.ALWAYS));

    private TypedJson() {
    }

    /** {@return Jackson's description of a Java type, e.g. of a method parameter's generic type} */
    public static JavaType type(Type type) {
        return MAPPER.constructType(type);
    }

    /**
     * A new instance of {@code type} built from a copy of {@code fields}.
     *
     * @param fields the JSON fields, left unchanged
     * @param type the type to build
     * @param what where the fields come from, for messages: {@code spec}, {@code status}, or empty for the body
     * @param <T> the type to build
     * @return the instance
     * @throws IllegalArgumentException naming the field and the type when a value does not fit
     */
    public static <T> T convert(Map<String, ?> fields, JavaType type, String what) {
        try {
            return MAPPER.convertValue(fields, type);
        } catch (IllegalArgumentException e) {
            String source = what.isEmpty() ? "the object" : what;
            if (e.getCause() instanceof JsonMappingException problem) {
                String field = fieldPath(what, problem);
                throw new IllegalArgumentException("cannot convert " + source + " to " + type.getRawClass().getSimpleName()
                        + (field.isEmpty() ? "" : " at " + field) + ": " + problem.getOriginalMessage(), e);
            }
            throw new IllegalArgumentException("cannot convert " + source + " to " + type.getRawClass().getSimpleName()
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * The fields of a record, a POJO or a map as plain JSON maps and lists; {@code null} fields are left out.
     *
     * @param value the value
     * @return a new, mutable map
     * @throws IllegalArgumentException if the value is not written as a JSON object (a string, a number, a list)
     */
    public static Map<String, Object> fieldsOf(Object value) {
        Object tree = MAPPER.convertValue(value, Object.class);
        if (!(tree instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("expected a record, a POJO or a map with fields, but got a "
                    + (value == null ? "null" : value.getClass().getSimpleName()));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) tree;
        return fields;
    }

    /**
     * A handler's value as JSON: strings, numbers and booleans as they are; maps and lists with all
     * they hold written and read back (so a map's {@code null} still deletes a field, as in Kopf);
     * records and POJOs as maps of their fields, {@code null} fields left out; {@code java.time}
     * values as timestamp texts. Written by Jackson's generator, whose limits (nesting depth) stop a
     * cyclic or too deep value with an exception rather than the thread's stack.
     *
     * @param value the value
     * @return the value as new, plain JSON maps, lists and scalars
     * @throws IllegalArgumentException with Jackson's reason if the value cannot be written as JSON
     */
    public static Object toJson(Object value) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value;
        }
        try {
            return Json.mapper().readValue(VALUES.writeValueAsBytes(value), Object.class);
        } catch (IOException e) {
            throw new IllegalArgumentException(e instanceof JsonProcessingException json ? json.getOriginalMessage()
                    : e.getMessage(), e);
        }
    }

    /**
     * Why Jackson cannot build {@code type} at all (an interface, no usable constructor, ...), found by
     * building one from an empty object; a constructor that only rejects the empty content is fine.
     *
     * @param type the type to check
     * @return Jackson's reason, or null if the type can be built
     */
    public static String whyUnbuildable(JavaType type) {
        try {
            MAPPER.convertValue(Map.of(), type);
            return null;
        } catch (IllegalArgumentException e) {
            if (e.getCause() instanceof ValueInstantiationException) {
                return null;
            }
            return e.getCause() instanceof JsonMappingException problem ? problem.getOriginalMessage() : e.getMessage();
        }
    }

    /** {@code spec.replicas}, {@code spec.items[2].name}: the field at which Jackson failed. */
    private static String fieldPath(String what, JsonMappingException problem) {
        String path = problem.getPath().stream()
                .map(step -> step.getFieldName() != null ? "." + step.getFieldName() : "[" + step.getIndex() + "]")
                .collect(Collectors.joining());
        return what.isEmpty() && path.startsWith(".") ? path.substring(1) : what + path;
    }
}
