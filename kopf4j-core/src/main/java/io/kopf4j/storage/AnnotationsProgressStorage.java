package io.kopf4j.storage;

import io.kopf4j.Patch;
import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import java.util.List;
import java.util.Map;

/**
 * Kopf's default progress storage: one annotation per handler, {@code kopf.zalando.org/<id>},
 * holding the record as compact JSON; written under both V2 and V1 keys ({@link StorageKeys}).
 * A prefix that does not start with {@code kopf.} is marked {@code <prefix>/kopf-managed: yes},
 * so that other Kopf-style operators ignore these annotations.
 *
 * <pre>{@code
 * settings.persistence.progressStorage = new AnnotationsProgressStorage("example.com", false);
 * }</pre>
 */
public final class AnnotationsProgressStorage implements ProgressStorage {
    /** Kopf's touch marker annotation, after the prefix. */
    public static final String DEFAULT_TOUCH_KEY = "touch-dummy";

    private final StorageKeys keys;
    private final String touchKey;

    /**
     * With Kopf's touch marker.
     *
     * @param prefix the annotations' prefix, e.g. {@code kopf.zalando.org}
     * @param v1 also write and read the V1 keys of older Kopf versions
     */
    public AnnotationsProgressStorage(String prefix, boolean v1) {
        this(prefix, v1, DEFAULT_TOUCH_KEY);
    }

    /**
     * With a touch marker of one's choice.
     *
     * @param prefix the annotations' prefix, e.g. {@code kopf.zalando.org}
     * @param v1 also write and read the V1 keys of older Kopf versions
     * @param touchKey the touch marker's name after the prefix
     */
    public AnnotationsProgressStorage(String prefix, boolean v1, String touchKey) {
        this.keys = new StorageKeys(prefix, v1);
        this.touchKey = touchKey;
    }

    /** @throws UnreadableStateException if the annotation holds no JSON object */
    /** Annotations only: never the status. */
    @Override
    public boolean writesStatus() {
        return false;
    }

    @Override
    public ProgressRecord fetch(String id, Map<String, Object> body) {
        for (String key : keys.keys(id, body)) {
            Object encoded = Dicts.resolve(body, annotation(key), null);
            if (encoded != null) {
                Map<String, Object> record = StoredJson.object(encoded, "annotation " + Json.pythonRepr(key));
                return record == null ? null : ProgressRecord.fromMap(record);
            }
        }
        return null;
    }

    @Override
    public void store(String id, ProgressRecord record, Map<String, Object> body, Patch patch) {
        String encoded = Json.compactAscii(record.toMap());
        for (String key : keys.keys(id, body)) {
            patch.annotations().put(key, encoded);
        }
        markAsKopfManaged(body, patch);
    }

    @Override
    public void purge(String id, Map<String, Object> body, Patch patch) {
        for (String key : keys.keys(id, body)) {
            if (Dicts.contains(body, annotation(key))) {
                patch.annotations().put(key, null);
            } else {
                patch.annotations().remove(key);
            }
        }
    }

    @Override
    public void touch(Map<String, Object> body, Patch patch, String value) {
        for (String key : keys.keys(touchKey, body)) {
            if (!java.util.Objects.equals(Dicts.resolve(body, annotation(key), null), value)) {
                patch.annotations().put(key, value);
                markAsKopfManaged(body, patch);
            }
        }
    }

    @Override
    public Map<String, Object> clear(Map<String, Object> essence) {
        Map<String, Object> cleared = Json.deepCopy(essence);
        if (Dicts.resolve(cleared, List.of("metadata", "annotations"), null) instanceof Map<?, ?> annotations) {
            annotations.keySet().removeIf(key -> key.toString().startsWith(keys.prefix() + "/"));
        }
        Essence.removeEmptyStanzas(cleared);
        return cleared;
    }

    private void markAsKopfManaged(Map<String, Object> body, Patch patch) {
        if (!keys.prefix().startsWith("kopf.")) {
            String marker = keys.prefix() + "/kopf-managed";
            if (!Dicts.contains(body, annotation(marker)) && !patch.annotations().containsKey(marker)) {
                patch.annotations().put(marker, "yes");
            }
        }
    }

    private static List<String> annotation(String key) {
        return List.of("metadata", "annotations", key);
    }
}
