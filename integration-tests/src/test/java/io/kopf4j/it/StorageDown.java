package io.kopf4j.it;

import io.kopf4j.Patch;
import io.kopf4j.storage.DiffBaseStorage;
import java.util.Map;

/**
 * A diff-base storage that is down for every object annotated with {@link #MARKER}: an unexpected
 * error in processing, outside any handler, as a user's own storage can throw. Kopf throttles the
 * object on such errors; removing the marker heals it.
 */
final class StorageDown implements DiffBaseStorage {
    static final String MARKER = "test.kopf4j.io/storage-down";
    static final String ERROR = "java.lang.IllegalStateException: the storage is down for this object";

    private final DiffBaseStorage storage;

    private StorageDown(DiffBaseStorage storage) {
        this.storage = storage;
    }

    /** The given storage, down for the marked objects. */
    static DiffBaseStorage around(DiffBaseStorage storage) {
        return new StorageDown(storage);
    }

    @Override
    public Map<String, Object> build(Map<String, Object> body) {
        return storage.build(body);
    }

    @Override
    public Map<String, Object> fetch(Map<String, Object> body) {
        if (body.get("metadata") instanceof Map<?, ?> metadata && metadata.get("annotations") instanceof Map<?, ?> annotations
                && annotations.containsKey(MARKER)) {
            throw new IllegalStateException("the storage is down for this object");
        }
        return storage.fetch(body);
    }

    @Override
    public boolean writesStatus() {
        return storage.writesStatus();
    }

    @Override
    public void store(Map<String, Object> body, Patch patch, Map<String, Object> essence) {
        storage.store(body, patch, essence);
    }
}
