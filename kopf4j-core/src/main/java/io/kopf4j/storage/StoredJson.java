package io.kopf4j.storage;

import io.kopf4j.internal.structs.Json;
import java.util.Map;

/** The JSON object that a storage keeps in an annotation or a field, read back or reported as unreadable. */
final class StoredJson {
    private StoredJson() {
    }

    /**
     * @param encoded the stored text
     * @param where what holds it, for the message: {@code annotation 'kopf.zalando.org/create'}
     * @return the object; null for a JSON {@code null}, which Kopf takes as no state
     * @throws UnreadableStateException if the text is no JSON object (garbage, a list, a number)
     */
    static Map<String, Object> object(Object encoded, String where) {
        try {
            return Json.parseMap(encoded.toString());
        } catch (IllegalArgumentException e) {
            throw new UnreadableStateException(where, e.getMessage(), e);
        }
    }
}
