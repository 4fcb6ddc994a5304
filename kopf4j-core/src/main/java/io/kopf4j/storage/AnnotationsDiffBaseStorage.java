package io.kopf4j.storage;

import io.kopf4j.Patch;
import io.kopf4j.structs.Json;
import java.util.Map;

/**
 * Kopf's default diff-base storage: the essence as compact JSON with a trailing newline in the
 * annotation {@code <prefix>/last-handled-configuration} (by default
 * {@code kopf.zalando.org/last-handled-configuration}). An object handled by Kopf is therefore
 * recognised as handled by kopf4j, and the reverse.
 */
public final class AnnotationsDiffBaseStorage implements DiffBaseStorage {
    public static final String DEFAULT_KEY = "last-handled-configuration";

    private final AnnotationPrefixes prefixes;
    private final Essence essence;
    private final String key;

    public AnnotationsDiffBaseStorage(String prefix) {
        this.prefixes = new AnnotationPrefixes(prefix);
        this.essence = new Essence(prefixes);
        this.key = prefixes.key(DEFAULT_KEY);
    }

    @Override
    public Map<String, Object> build(Map<String, Object> body) {
        return essence.of(body);
    }

    @Override
    public Map<String, Object> fetch(Map<String, Object> body) {
        Object metadata = body.get("metadata");
        if (!(metadata instanceof Map<?, ?> meta) || !(meta.get("annotations") instanceof Map<?, ?> annotations)) {
            return null;
        }
        Object encoded = annotations.get(key);
        return encoded == null ? null : Json.parseMap(encoded.toString());
    }

    @Override
    public void store(Map<String, Object> body, Patch patch, Map<String, Object> essence) {
        patch.annotations().put(key, Json.compactAscii(essence) + "\n");
    }
}
