package io.kopf4j.internal.engines.sharding;

import io.kopf4j.internal.reactor.processing.Sharding;
import java.util.function.LongSupplier;

/**
 * What this replica may handle while views change: only the objects it owns both under the view
 * agreed by all members and under the view it is moving to. So an object that moves is dropped at
 * once by its old owner and taken by the new one only after everyone has agreed on the new view,
 * which every member does only once it has put down the objects it loses.
 *
 * <pre>{@code
 * Ownership ownership = new Ownership(System::nanoTime);   // owns nothing before the first agreement
 * ownership.moveTo(ShardView.auto(List.of("a", "b"), "a"));
 * ownership.agree();                                       // everyone has put down what they lose
 * ownership.validUntil(System.nanoTime() + leaseLeft);     // at every renewal of the Lease
 * }</pre>
 */
public final class Ownership implements Sharding {
    private record Views(ShardView agreed, ShardView target) {
    }

    private final LongSupplier clock;
    private volatile Views views = new Views(ShardView.NOBODY, ShardView.NOBODY);
    /**
     * Nothing is owned from this moment on unless the Lease is renewed meanwhile: checked at every
     * event, so that a replica cut off from the API server stops taking events before the others
     * count its Lease expired, even while its own calls hang.
     */
    private volatile long validUntilNanos;

    public Ownership(LongSupplier clock) {
        this.clock = clock;
        this.validUntilNanos = clock.getAsLong();
    }

    @Override
    public boolean owns(String key) {
        Views current = views;
        return clock.getAsLong() - validUntilNanos < 0 && current.agreed.owns(key) && (current.target == current.agreed || current.target.owns(key));
    }

    /** Whether the object is still owned under the agreed view but no longer under the target: it is being handed over. */
    public boolean losing(String key) {
        Views current = views;
        return current.agreed.owns(key) && !current.target.owns(key);
    }

    /** Narrows what is owned to what both the agreed and the new view give this replica. */
    public void moveTo(ShardView target) {
        views = new Views(views.agreed, target);
    }

    /** Every member has applied the target view: it becomes the agreed one. */
    public void agree() {
        Views current = views;
        views = new Views(current.target, current.target);
    }

    /** The Lease was renewed: owning lasts until then (its expiry less a margin), unless renewed again. */
    public void validUntil(long nanos) {
        validUntilNanos = nanos;
    }

    public long validUntil() {
        return validUntilNanos;
    }

    /** Owns nothing, agreed or not: this replica starts over, as a new member would. */
    public void reset() {
        views = new Views(ShardView.NOBODY, ShardView.NOBODY);
    }

    public ShardView agreed() {
        return views.agreed;
    }

    public ShardView target() {
        return views.target;
    }
}
