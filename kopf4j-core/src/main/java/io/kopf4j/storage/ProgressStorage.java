package io.kopf4j.storage;

import io.kopf4j.Patch;
import java.util.Map;

/**
 * Where handlers' progress between handling cycles is kept: Kopf's {@code ProgressStorage}.
 * Records are kept per handler id, so that operators with other handler ids can share an object.
 * Implement it to keep progress elsewhere; set it in the operator's persistence settings.
 *
 * <pre>{@code
 * settings.persistence.progressStorage = new StatusProgressStorage();   // status.kopf.progress.<id>
 * }</pre>
 */
public interface ProgressStorage {
    /**
     * {@return the stored record of a handler, or null}
     *
     * @param id the handler's id
     * @param body the object as last seen
     * @throws UnreadableStateException if what is stored cannot be read: the operator warns and takes
     *         the handler as never run
     */
    ProgressRecord fetch(String id, Map<String, Object> body);

    /**
     * {@return whether it writes into the object's status} (then the operator needs {@code patch} on
     * its {@code /status} for every handler, whatever it returns); true unless a storage says otherwise
     */
    default boolean writesStatus() {
        return true;
    }

    /**
     * Adds the record to the patch.
     *
     * @param id the handler's id
     * @param record the record to store
     * @param body the object as last seen
     * @param patch the patch to add to
     */
    void store(String id, ProgressRecord record, Map<String, Object> body, Patch patch);

    /**
     * Adds to the patch what removes the record (if the object has one).
     *
     * @param id the handler's id
     * @param body the object as last seen
     * @param patch the patch to add to
     */
    void purge(String id, Map<String, Object> body, Patch patch);

    /**
     * Adds to the patch a change of the touch marker, to provoke a new watch event.
     *
     * @param body the object as last seen
     * @param patch the patch to add to
     * @param value the marker's new value; null removes it
     */
    void touch(Map<String, Object> body, Patch patch, String value);

    /**
     * {@return the essence without this storage's own fields, so that they never count as changes}
     *
     * @param essence the essence built by the diff-base storage
     */
    Map<String, Object> clear(Map<String, Object> essence);
}
