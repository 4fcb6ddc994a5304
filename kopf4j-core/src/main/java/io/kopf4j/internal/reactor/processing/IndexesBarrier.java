package io.kopf4j.internal.reactor.processing;

import java.time.Duration;

/**
 * Kopf's {@code operator_indexed} toggle: no handler runs until every indexed resource has been
 * listed and every listed object indexed (again after watchers are added), so that none sees a partial index. Objects are indexed
 * on the watcher's thread as their events arrive, before they are queued ({@link ResourceProcessor#arrived}),
 * so a resource is indexed as soon as its listing is delivered: the barrier waits for the listings only.
 *
 * <p>Kopf's deadlock with {@code queueing.workerLimit} (its issue #1243) cannot happen here: Kopf
 * indexes inside the object's worker, so the workers that wait at the barrier hold every place and
 * the objects not yet indexed never get one. Here the waiting workers hold places too, but neither
 * the listing nor the indexing needs one.
 *
 * <pre>{@code
 * IndexesBarrier barrier = new IndexesBarrier(registry.hasIndexingHandlers(), observer::awaitListed);
 * barrier.await();   // in each object's worker, before its handlers
 * }</pre>
 */
public final class IndexesBarrier {
    /** How long one wait lasts before the listing is asked again (watchers may have been added meanwhile). */
    private static final Duration RECHECK = Duration.ofSeconds(1);

    /** Waits until every indexed resource has delivered its initial listing, up to a timeout. */
    @FunctionalInterface
    public interface Listing {
        boolean awaitListed(Duration timeout) throws InterruptedException;
    }

    /** For operators without indexes: never waits. */
    public static final IndexesBarrier OPEN = new IndexesBarrier(false, timeout -> true);

    private final boolean indexed;
    private final Listing listing;

    /**
     * @param indexed the operator has indexes (else the barrier is open from the start)
     * @param listing the listings of the watched resources
     */
    public IndexesBarrier(boolean indexed, Listing listing) {
        this.indexed = indexed;
        this.listing = listing;
    }

    /**
     * Returns once every indexed resource is listed and indexed. Asked at every event, not once:
     * as Kopf's toggle, the barrier closes again while a watcher added later (a namespace that
     * appeared, a resume after a pause) delivers its listing.
     */
    public void await() throws InterruptedException {
        boolean listed = !indexed;
        while (!listed) {
            listed = listing.awaitListed(RECHECK);   // asked again with the watchers as they are by then
        }
    }

    /** {@return whether the indexes are complete now, without waiting: the readiness check {@code indexes-ready}} */
    public boolean ready() {
        if (!indexed) {
            return true;
        }
        try {
            return listing.awaitListed(Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
