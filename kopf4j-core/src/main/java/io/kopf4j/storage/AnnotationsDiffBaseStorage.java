package io.kopf4j.storage;

import io.kopf4j.Patch;
import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Kopf's default diff-base storage: the essence as compact JSON with a trailing newline in the
 * annotation {@code <prefix>/last-handled-configuration} (by default
 * {@code kopf.zalando.org/last-handled-configuration}), under Kopf's V2 and V1 keys. An object
 * handled by Kopf is therefore recognised as handled by kopf4j, and the reverse.
 *
 * <pre>{@code
 * settings.persistence.diffbaseStorage = new AnnotationsDiffBaseStorage("example.com",
 *         AnnotationsDiffBaseStorage.DEFAULT_KEY, List.of("spec.data"));   // spec.data is no part of the essence
 * }</pre>
 */
public final class AnnotationsDiffBaseStorage implements DiffBaseStorage {
    /** Kopf's annotation name, after the prefix. */
    public static final String DEFAULT_KEY = "last-handled-configuration";

    private final StorageKeys keys;
    private final Essence essence;
    private final String key;

    /**
     * Kopf's {@code <prefix>/last-handled-configuration}.
     *
     * @param prefix the annotations' prefix, e.g. {@code kopf.zalando.org}
     */
    public AnnotationsDiffBaseStorage(String prefix) {
        this(prefix, DEFAULT_KEY, List.of());
    }

    /**
     * An annotation of one's choice.
     *
     * @param prefix the annotation's prefix, e.g. {@code kopf.zalando.org}
     * @param key the annotation's name after the prefix
     * @param ignoredFields dotted paths of fields whose changes are not changes (e.g. a large
     *                      {@code spec.data} that would not fit in an annotation)
     */
    public AnnotationsDiffBaseStorage(String prefix, String key, List<String> ignoredFields) {
        this.keys = new StorageKeys(prefix, true);
        this.essence = new Essence(new AnnotationPrefixes(prefix), ignoredFields);
        this.key = key;
    }

    /** Annotations only: never the status. */
    @Override
    public boolean writesStatus() {
        return false;
    }

    @Override
    public Map<String, Object> build(Map<String, Object> body) {
        return essence.of(body);
    }

    @Override
    public Map<String, Object> build(Map<String, Object> body, Collection<List<String>> extraFields) {
        return essence.of(body, extraFields);
    }

    /** @throws UnreadableStateException if the annotation holds no JSON object */
    @Override
    public Map<String, Object> fetch(Map<String, Object> body) {
        for (String annotation : keys.keys(key, body)) {
            Object encoded = Dicts.resolve(body, List.of("metadata", "annotations", annotation), null);
            if (encoded != null) {
                return StoredJson.object(encoded, "annotation " + Json.pythonRepr(annotation));
            }
        }
        return null;
    }

    @Override
    public void store(Map<String, Object> body, Patch patch, Map<String, Object> current) {
        String encoded = Json.compactAscii(current) + "\n";
        for (String annotation : keys.keys(key, body)) {
            patch.annotations().put(annotation, encoded);
        }
        if (!keys.prefix().startsWith("kopf.")) {
            patch.annotations().putIfAbsent(keys.prefix() + "/kopf-managed", "yes");
        }
    }
}
