package io.kopf4j.internal.reactor.processing;

import io.kopf4j.Index;
import io.kopf4j.Memo;
import io.kopf4j.Resource;
import io.kopf4j.internal.watching.WatchEvent;

/**
 * The operator's indexes, as processing feeds them (Kopf's {@code index_resource}). The indexing
 * engine implements it, so that the reactor never depends on the engines; {@link #NONE} serves
 * operators without indexes.
 */
public interface Indexing {
    /** For operators without indexes: nothing to feed, no index to look up. */
    Indexing NONE = new Indexing() {
        @Override
        public void index(Resource resource, WatchEvent event, Memo memo) {
        }

        @Override
        public Index<?, ?> index(String id) {
            throw new IllegalArgumentException("this operator has no index '" + id + "'");
        }
    };

    /**
     * Feeds one event of an object to the indexes of its resource: a DELETED event removes the
     * object's values; any other runs the indexing functions whose filters it passes and removes
     * its values from those it stopped passing. Never throws: a failing function is logged.
     *
     * @param memo the object's memo, as indexing functions see it (Kopf's)
     */
    void index(Resource resource, WatchEvent event, Memo memo);

    /**
     * The index of an id, for handlers.
     *
     * @throws IllegalArgumentException if there is none
     */
    Index<?, ?> index(String id);
}
