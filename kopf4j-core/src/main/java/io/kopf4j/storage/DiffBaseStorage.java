package io.kopf4j.storage;

import io.kopf4j.Patch;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Where the last handled state of an object (its essence) is kept, so that a change can be told
 * from a restart: Kopf's {@code DiffBaseStorage}.
 *
 * <pre>{@code
 * settings.persistence.diffbaseStorage = new StatusDiffBaseStorage();
 * Map<String, Object> lastHandled = settings.persistence.diffbaseStorage.fetch(body);   // null if never handled
 * }</pre>
 */
public interface DiffBaseStorage {
    /**
     * {@return the essence of the body: what a change must touch to count as a change}
     *
     * @param body the object as last seen
     */
    Map<String, Object> build(Map<String, Object> body);

    /**
     * The essence with the handlers' fields kept (Kopf's {@code extra_fields}), e.g. {@code status.phase}
     * for {@code @On.Field(field = "status.phase")}, which the plain essence leaves out. Storages that
     * only implement {@link #build(Map)} get the fields copied onto their essence.
     *
     * @param body the object as last seen
     * @param extraFields field paths (split at dots) that handlers of the resource react to
     * @return the essence, with those of the fields that the body has
     */
    default Map<String, Object> build(Map<String, Object> body, Collection<List<String>> extraFields) {
        Map<String, Object> essence = build(body);
        Essence.cherryPick(body, essence, extraFields);
        return essence;
    }

    /**
     * {@return the essence stored on the object by an earlier handling, or null if it was never handled}
     *
     * @param body the object as last seen
     * @throws UnreadableStateException if what is stored cannot be read: the operator warns and takes
     *         the object as never handled
     */
    Map<String, Object> fetch(Map<String, Object> body);

    /** {@return whether it writes into the object's status}; true unless a storage says otherwise */
    default boolean writesStatus() {
        return true;
    }

    /**
     * Adds to the patch what records {@code essence} as the last handled state.
     *
     * @param body the object as last seen
     * @param patch the patch to add to
     * @param essence the essence to record
     */
    void store(Map<String, Object> body, Patch patch, Map<String, Object> essence);
}
