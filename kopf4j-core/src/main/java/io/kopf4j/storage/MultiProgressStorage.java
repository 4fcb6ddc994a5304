package io.kopf4j.storage;

import io.kopf4j.Patch;
import java.util.List;
import java.util.Map;

/**
 * Several storages as one: writes to all, reads from the first that has a record. Kopf's default
 * ({@link #smart(String)}) is annotations (read-write) plus the old status field (read-only), so
 * objects handled by older Kopf versions keep their progress.
 *
 * <pre>{@code
 * settings.persistence.progressStorage = MultiProgressStorage.smart("example.com");
 * }</pre>
 */
public final class MultiProgressStorage implements ProgressStorage {
    private final List<ProgressStorage> storages;

    /**
     * Several storages as one.
     *
     * @param storages read in this order
     */
    public MultiProgressStorage(List<ProgressStorage> storages) {
        this.storages = List.copyOf(storages);
    }

    /**
     * Kopf's {@code SmartProgressStorage}: annotations under the prefix, plus status.kopf.progress read-only.
     *
     * @param prefix the annotations' prefix, e.g. {@code kopf.zalando.org}
     * @return the storage
     */
    public static MultiProgressStorage smart(String prefix) {
        return new MultiProgressStorage(List.of(new AnnotationsProgressStorage(prefix, true), new StatusProgressStorage.ReadOnly()));
    }

    @Override
    public ProgressRecord fetch(String id, Map<String, Object> body) {
        return FirstReadable.of(storages, storage -> storage.fetch(id, body));
    }

    /** {@return whether any of the storages writes into the status} */
    @Override
    public boolean writesStatus() {
        return storages.stream().anyMatch(ProgressStorage::writesStatus);
    }

    @Override
    public void store(String id, ProgressRecord record, Map<String, Object> body, Patch patch) {
        storages.forEach(s -> s.store(id, record, body, patch));
    }

    @Override
    public void purge(String id, Map<String, Object> body, Patch patch) {
        storages.forEach(s -> s.purge(id, body, patch));
    }

    @Override
    public void touch(Map<String, Object> body, Patch patch, String value) {
        storages.forEach(s -> s.touch(body, patch, value));
    }

    @Override
    public Map<String, Object> clear(Map<String, Object> essence) {
        Map<String, Object> cleared = essence;
        for (ProgressStorage storage : storages) {
            cleared = storage.clear(cleared);
        }
        return cleared;
    }
}
