package io.kopf4j.storage;

import io.kopf4j.Patch;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Several diff-base storages as one: writes to all, reads from the first that has one.
 *
 * <pre>{@code
 * settings.persistence.diffbaseStorage = new MultiDiffBaseStorage(List.of(   // moving to the status
 *         new StatusDiffBaseStorage(), new AnnotationsDiffBaseStorage(AnnotationPrefixes.KOPF_PREFIX)));
 * }</pre>
 */
public final class MultiDiffBaseStorage implements DiffBaseStorage {
    private final List<DiffBaseStorage> storages;

    /**
     * Several storages as one.
     *
     * @param storages read in this order; at least one
     * @throws IllegalArgumentException if there is none
     */
    public MultiDiffBaseStorage(List<DiffBaseStorage> storages) {
        if (storages.isEmpty()) {
            throw new IllegalArgumentException("a multi-storage needs at least one storage");
        }
        this.storages = List.copyOf(storages);
    }

    /** Each storage cleans the essence of its own fields, in turn. */
    @Override
    public Map<String, Object> build(Map<String, Object> body) {
        return build(body, List.of());
    }

    @Override
    public Map<String, Object> build(Map<String, Object> body, Collection<List<String>> extraFields) {
        Map<String, Object> essence = body;
        for (DiffBaseStorage storage : storages) {
            essence = storage.build(essence, extraFields);
        }
        return essence;
    }

    /**
     * The first essence that a storage has and can read; an unreadable one is passed over for the
     * next storage's, and reported only if no storage has a readable one.
     *
     * @throws UnreadableStateException if a storage cannot read what it keeps and none other has an essence
     */
    @Override
    public Map<String, Object> fetch(Map<String, Object> body) {
        return FirstReadable.of(storages, storage -> storage.fetch(body));
    }

    /** {@return whether any of the storages writes into the status} */
    @Override
    public boolean writesStatus() {
        return storages.stream().anyMatch(DiffBaseStorage::writesStatus);
    }

    @Override
    public void store(Map<String, Object> body, Patch patch, Map<String, Object> current) {
        storages.forEach(storage -> storage.store(body, patch, current));
    }
}
