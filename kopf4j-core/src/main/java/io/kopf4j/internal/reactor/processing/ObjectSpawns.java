package io.kopf4j.internal.reactor.processing;

import io.kopf4j.internal.intents.SpawningCause;
import java.util.Set;

/** The daemons and timers of one object: spawned, matched and stopped as its events say. */
public interface ObjectSpawns {
    /**
     * Kopf's {@code process_spawning_cause}: resets the timers' idle time if the object changed
     * essentially; if it is being deleted, stops every daemon and timer, else spawns the matching
     * ones and stops those that no longer match.
     *
     * @param deleting the object has a deletionTimestamp
     * @return true while something stopped for the deletion still runs (and is not abandoned): the
     *         finalizer stays, and the object is rechecked when that changes
     */
    boolean handle(SpawningCause cause, boolean deleting);

    /** {@return the ids that ended on their own (Kopf's forever-stopped): never spawned again, no finalizer for them} */
    Set<String> foreverStopped();

    /** The object is gone (a DELETED event): stop everything; nothing holds it any more. */
    void gone();
}
