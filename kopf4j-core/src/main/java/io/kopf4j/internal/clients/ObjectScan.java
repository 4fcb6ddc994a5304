package io.kopf4j.internal.clients;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.kopf4j.internal.structs.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the API server's answers object by object where one object cannot be parsed, so that it
 * alone is left out ({@link UnreadableObject}) and the others are served.
 *
 * <p>By hand, on Jackson's token stream, because no parser skips one element of an array that
 * breaks its limits: the limits (nesting depth, number length) stop a whole document. The scan
 * walks the tokens without limits, which costs no stack (Jackson's parser keeps its nesting in a
 * linked list), keeps only the few identity fields, and hands each listed object's bytes to the
 * limited parser on its own. It runs only after a whole answer failed to parse: the usual answer
 * is parsed once, as before.
 *
 * <pre>{@code
 * ApiRequest.Listing page = ObjectScan.listing(bytes);   // every readable item; the others in page.unreadable()
 * ObjectScan.Event event = ObjectScan.event(line, 0, line.length, failure);   // null: not even a watch-event
 * }</pre>
 */
final class ObjectScan {
    /** No limits: only tokens are walked, never built into values on the stack. */
    private static final JsonFactory UNLIMITED = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(Integer.MAX_VALUE)
                    .maxNumberLength(Integer.MAX_VALUE).maxStringLength(Integer.MAX_VALUE).maxNameLength(Integer.MAX_VALUE)
                    .build())
            .build();
    private static final Set<String> TOP_FIELDS = Set.of("apiVersion", "kind");
    private static final Set<String> METADATA_FIELDS = Set.of("name", "namespace", "uid", "resourceVersion");
    private static final Set<String> WATCH_TYPES = Set.of("ADDED", "MODIFIED", "DELETED");

    private ObjectScan() {
    }

    /**
     * A page of a listing: parsed at once if it can be; else item by item, the unreadable ones left
     * out with their identity.
     *
     * @throws IllegalArgumentException if the page as a whole is not JSON
     */
    @SuppressWarnings("unchecked")
    static ApiRequest.Listing listing(byte[] body) {
        Map<String, Object> page;
        try {
            page = Json.parseMap(body);
        } catch (IllegalArgumentException oneItemOrAll) {
            return itemByItem(body, oneItemOrAll);
        }
        Map<String, Object> metadata = page.get("metadata") instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
        List<Map<String, Object>> items = new ArrayList<>();
        if (page.get("items") instanceof List<?> listed) {
            listed.stream().filter(Map.class::isInstance).forEach(item -> items.add((Map<String, Object>) item));
        }
        return new ApiRequest.Listing(items, text(metadata.get("resourceVersion")), text(metadata.get("continue")), List.of());
    }

    /**
     * A watch-event's line that failed to parse as a whole, read again with its object as a document
     * of its own, as a listing's items are: the object is readable if it is within the parser's limits
     * on its own (the event around it takes one level of the depth a listed object has).
     *
     * @param line the line parsed after all, with its object; or null if the object cannot be read
     * @param unreadable what could be read of an object that cannot, with why; or null if it could be
     */
    record Event(Map<String, Object> line, UnreadableObject unreadable) {
    }

    /**
     * Reads a watch-event's line that failed to parse, its object on its own; null if the line is not
     * even a watch-event of an object (a broken stream).
     */
    static Event event(byte[] bytes, int offset, int length, RuntimeException failure) {
        String type = null;
        int start = -1;
        int end = -1;
        try (JsonParser parser = UNLIMITED.createParser(bytes, offset, length)) {
            if (parser.nextToken() == JsonToken.START_OBJECT) {
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    JsonToken value = parser.nextToken();
                    if (field.equals("type") && value == JsonToken.VALUE_STRING) {
                        type = parser.getText();
                    } else if (field.equals("object") && value == JsonToken.START_OBJECT) {
                        start = offset + (int) parser.currentTokenLocation().getByteOffset();
                        parser.skipChildren();
                        end = offset + (int) parser.currentLocation().getByteOffset();
                    } else {
                        parser.skipChildren();
                    }
                }
            }
        } catch (IOException brokenFurtherOn) {
            // What was found before the break is all there is.
        }
        if (type == null || !WATCH_TYPES.contains(type) || start < 0 || end < 0) {
            return null;
        }
        try {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("type", type);
            line.put("object", Json.parseMap(bytes, start, end - start));
            return new Event(line, null);
        } catch (IllegalArgumentException objectFails) {
            return new Event(null, new UnreadableObject(type, identityOf(bytes, start, end - start), reason(objectFails)));
        }
    }

    private static ApiRequest.Listing itemByItem(byte[] body, IllegalArgumentException failure) {
        List<Map<String, Object>> items = new ArrayList<>();
        List<UnreadableObject> unreadable = new ArrayList<>();
        String version = null;
        String continueToken = null;
        try (JsonParser parser = UNLIMITED.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw failure;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("items") && value == JsonToken.START_ARRAY) {
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        int start = (int) parser.currentTokenLocation().getByteOffset();
                        parser.skipChildren();
                        int end = (int) parser.currentLocation().getByteOffset();
                        item(body, start, end - start, items, unreadable);
                    }
                } else if (field.equals("metadata") && value == JsonToken.START_OBJECT) {
                    Map<String, Object> metadata = strings(parser, Set.of("resourceVersion", "continue"));
                    version = text(metadata.get("resourceVersion"));
                    continueToken = text(metadata.get("continue"));
                } else {
                    parser.skipChildren();
                }
            }
        } catch (IOException notJson) {
            throw failure;
        }
        return new ApiRequest.Listing(items, version, continueToken, unreadable);
    }

    private static void item(byte[] body, int offset, int length, List<Map<String, Object>> items,
                             List<UnreadableObject> unreadable) {
        try {
            items.add(Json.parseMap(body, offset, length));
        } catch (IllegalArgumentException e) {
            unreadable.add(new UnreadableObject(null, identityOf(body, offset, length), reason(e)));
        }
    }

    /** The identity of the object in this range of bytes, as far as it can be read. */
    private static Map<String, Object> identityOf(byte[] bytes, int offset, int length) {
        Map<String, Object> identity = new LinkedHashMap<>();
        try (JsonParser parser = UNLIMITED.createParser(bytes, offset, length)) {
            if (parser.nextToken() == JsonToken.START_OBJECT) {
                identify(parser, identity);
            }
        } catch (IOException brokenFurtherOn) {
            // The identity found before the break is kept.
        }
        return identity;
    }

    /** From an object's start: its apiVersion and kind, and the identity fields of its metadata; the rest skipped. */
    private static void identify(JsonParser parser, Map<String, Object> identity) throws IOException {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            if (TOP_FIELDS.contains(field) && value == JsonToken.VALUE_STRING) {
                identity.put(field, parser.getText());
            } else if (field.equals("metadata") && value == JsonToken.START_OBJECT) {
                identity.put("metadata", strings(parser, METADATA_FIELDS));
            } else {
                parser.skipChildren();
            }
        }
    }

    /** From an object's start to its end: the string values of these fields, all else skipped. */
    private static Map<String, Object> strings(JsonParser parser, Set<String> fields) throws IOException {
        Map<String, Object> found = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            if (parser.nextToken() == JsonToken.VALUE_STRING && fields.contains(field)) {
                found.put(field, parser.getText());
            } else {
                parser.skipChildren();
            }
        }
        return found;
    }

    /** The parser's own words (e.g. its nesting limit), without the location trail. */
    private static String reason(RuntimeException failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonProcessingException json) {
                return json.getOriginalMessage();
            }
        }
        return failure.getMessage();
    }

    private static String text(Object value) {
        return value instanceof String text && !text.isEmpty() ? text : null;
    }
}
