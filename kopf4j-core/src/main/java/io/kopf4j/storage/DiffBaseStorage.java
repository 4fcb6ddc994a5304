package io.kopf4j.storage;

import io.kopf4j.Patch;
import java.util.Map;

/**
 * Where the last handled state of an object (its essence) is kept, so that a change can be told
 * from a restart: Kopf's {@code DiffBaseStorage}.
 */
public interface DiffBaseStorage {
    /**
     * {@return the essence of the body: what a change must touch to count as a change}
     *
     * @param body the object as last seen
     */
    Map<String, Object> build(Map<String, Object> body);

    /**
     * {@return the essence stored on the object by an earlier handling, or null if it was never handled}
     *
     * @param body the object as last seen
     */
    Map<String, Object> fetch(Map<String, Object> body);

    /**
     * Adds to the patch what records {@code essence} as the last handled state.
     *
     * @param body the object as last seen
     * @param patch the patch to add to
     * @param essence the essence to record
     */
    void store(Map<String, Object> body, Patch patch, Map<String, Object> essence);
}
