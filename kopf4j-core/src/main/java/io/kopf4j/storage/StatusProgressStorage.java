package io.kopf4j.storage;

import io.kopf4j.Patch;
import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Kopf's older progress storage: records as nested maps in {@code status.kopf.progress.<id>},
 * the touch marker in {@code status.kopf.dummy}. Needs a status the API server does not prune
 * ({@code x-kubernetes-preserve-unknown-fields}); built-in resources rarely allow it.
 *
 * <pre>{@code
 * settings.persistence.progressStorage = new StatusProgressStorage();
 * }</pre>
 */
public class StatusProgressStorage implements ProgressStorage {
    private final List<String> field;
    private final List<String> touchField;

    /** {@code status.kopf.progress} and {@code status.kopf.dummy}. */
    public StatusProgressStorage() {
        this("status.kopf.progress", "status.kopf.dummy");
    }

    /**
     * Fields of one's choice.
     *
     * @param field the dotted path of the records' map
     * @param touchField the dotted path of the touch marker
     */
    public StatusProgressStorage(String field, String touchField) {
        this.field = Dicts.parseField(field);
        this.touchField = Dicts.parseField(touchField);
    }

    @Override
    public ProgressRecord fetch(String id, Map<String, Object> body) {
        return Dicts.resolve(body, path(id), null) instanceof Map<?, ?> record ? ProgressRecord.fromMap(record) : null;
    }

    @Override
    public void store(String id, ProgressRecord record, Map<String, Object> body, Patch patch) {
        Dicts.ensure(patch.root(), path(id), record.toMap());
    }

    @Override
    public void purge(String id, Map<String, Object> body, Patch patch) {
        if (Dicts.contains(body, path(id))) {
            Dicts.ensure(patch.root(), path(id), null);
        } else {
            Dicts.remove(patch.root(), path(id));
        }
    }

    @Override
    public void touch(Map<String, Object> body, Patch patch, String value) {
        if (!Objects.equals(Dicts.resolve(body, touchField, null), value)) {
            Dicts.ensure(patch.root(), touchField, value);
        }
    }

    @Override
    public Map<String, Object> clear(Map<String, Object> essence) {
        Map<String, Object> cleared = Json.deepCopy(essence);
        Dicts.remove(cleared, field);
        Essence.removeEmptyStanzas(cleared);
        return cleared;
    }

    private List<String> path(String id) {
        List<String> path = new ArrayList<>(field);
        path.add(id);
        return path;
    }

    /** Reads records written by older operators, writes nothing: Kopf's read-only half of its default. */
    static final class ReadOnly extends StatusProgressStorage {
        @Override
        public void store(String id, ProgressRecord record, Map<String, Object> body, Patch patch) {
        }

        @Override
        public void touch(Map<String, Object> body, Patch patch, String value) {
        }

        /**
         * Nothing but the purge of a record that an older Kopf left in the status (Kopf's own
         * {@code NoWriteStatusProgressStorage} purges it too): no reason to ask for the status of
         * every object's handlers.
         */
        @Override
        public boolean writesStatus() {
            return false;
        }
    }
}
