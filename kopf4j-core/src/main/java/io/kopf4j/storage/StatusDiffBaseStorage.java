package io.kopf4j.storage;

import io.kopf4j.Patch;
import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Kopf's status diff-base storage: the essence as a compact JSON string in
 * {@code status.kopf.last-handled-configuration} (a string, so that merge patches never merge
 * into it). For objects whose annotations should stay small; needs a status that is not pruned.
 *
 * <pre>{@code
 * settings.persistence.diffbaseStorage = new StatusDiffBaseStorage();   // status.kopf.last-handled-configuration
 * }</pre>
 */
public final class StatusDiffBaseStorage implements DiffBaseStorage {
    private final List<String> field;
    private final Essence essence;

    /** Kopf's {@code status.kopf.last-handled-configuration}. */
    public StatusDiffBaseStorage() {
        this("status.kopf.last-handled-configuration", List.of());
    }

    /**
     * A field of one's choice.
     *
     * @param field the dotted path of the field
     * @param ignoredFields dotted paths of fields whose changes are not changes
     */
    public StatusDiffBaseStorage(String field, List<String> ignoredFields) {
        this.field = Dicts.parseField(field);
        this.essence = new Essence(new AnnotationPrefixes(AnnotationPrefixes.KOPF_PREFIX), ignoredFields);
    }

    @Override
    public Map<String, Object> build(Map<String, Object> body) {
        return build(body, List.of());
    }

    @Override
    public Map<String, Object> build(Map<String, Object> body, Collection<List<String>> extraFields) {
        Map<String, Object> built = essence.of(body, extraFields);
        Dicts.remove(built, field);
        return built;
    }

    /** @throws UnreadableStateException if the field holds no JSON object */
    @Override
    public Map<String, Object> fetch(Map<String, Object> body) {
        Object encoded = Dicts.resolve(body, field, null);
        return encoded == null ? null : StoredJson.object(encoded, "field " + Json.pythonRepr(String.join(".", field)));
    }

    @Override
    public void store(Map<String, Object> body, Patch patch, Map<String, Object> current) {
        Dicts.ensure(patch.root(), field, Json.compactAscii(current));
    }
}
