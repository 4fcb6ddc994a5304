package io.kopf4j.internal.reactor.processing;

import io.kopf4j.Body;
import io.kopf4j.Memo;
import io.kopf4j.Resource;
import io.kopf4j.internal.logging.ObjectLogger;

/**
 * The daemons and timers of the objects, as processing sees them (Kopf's
 * {@code process_spawning_cause}). The daemons engine implements it, so that the reactor never
 * depends on the engines; {@link #NONE} serves operators without daemons and timers.
 */
public interface Spawning {
    /** For operators without daemons and timers: processing never asks for them. */
    Spawning NONE = new Spawning() {
        @Override
        public ObjectSpawns object(Resource resource, Body body, Memo memo, ObjectLogger logger, Runnable recheck) {
            throw new IllegalStateException("this operator has no daemons or timers");
        }

        @Override
        public void pause() {
        }

        @Override
        public void resume() {
        }
    };

    /**
     * The daemons and timers of one object, kept with the object's memory until it is deleted.
     *
     * @param body the object's live body, which processing refreshes at every event
     * @param memo the object's memo
     * @param logger the object's posting logger
     * @param recheck queues the object for processing again with its latest body, without an API request
     */
    ObjectSpawns object(Resource resource, Body body, Memo memo, ObjectLogger logger, Runnable recheck);

    /** The operator pauses (peering, a lost leadership): stop every daemon; spawn none until {@link #resume()}. */
    void pause();

    /** The operator resumes after a pause: the objects' next events spawn their daemons again. */
    void resume();
}
