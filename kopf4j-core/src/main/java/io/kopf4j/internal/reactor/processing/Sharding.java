package io.kopf4j.internal.reactor.processing;

/**
 * Which objects this replica handles, when several replicas split the objects between them
 * (sharding). Processing asks it at every event before anything else happens to the object: an
 * object not owned gets no handlers, no finalizer, no daemons, and is forgotten (its memory and
 * daemons dropped), so that it is seen afresh if it comes back. The sharding engine implements it,
 * so that the reactor never depends on the engines; {@link #ALL} serves an operator that runs alone.
 *
 * <pre>{@code
 * Sharding evenUids = key -> key.hashCode() % 2 == 0;   // a test's fake
 * Reactor reactor = new Reactor(services, client, watchClient, poster, execution, patcher, daemons, children, indexes, evenUids);
 * }</pre>
 */
@FunctionalInterface
public interface Sharding {
    /** No sharding: this replica handles every object. */
    Sharding ALL = key -> true;

    /**
     * @param key Kopf's object key ({@link io.kopf4j.internal.watching.WatchEvent#key()}: the uid)
     * @return whether this replica handles the object now; it must be cheap (asked at every event)
     */
    boolean owns(String key);
}
