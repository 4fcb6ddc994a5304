package io.kopf4j.internal.runtime;

/**
 * One engine of a running operator, with the lifecycle that every engine shares (as
 * controller-runtime's {@code Runnable} under its {@code Manager}): the composition root
 * ({@code io.kopf4j.internal.running.OperatorRuntime}) starts the engines in one listed order and, at the
 * stop, tells them all to stop taking new work in the reverse order, waits for the handlers in
 * flight (up to the grace period), and then releases them in the reverse order.
 *
 * <pre>{@code
 * final class Heartbeat implements Engine {
 *     private final Thread beat = Thread.ofVirtual().unstarted(this::beat);
 *     public void start() { beat.start(); }                       // returns once it runs
 *     public void stopTakingWork() { beat.interrupt(); }           // no new beats; the current one ends
 *     public void release(boolean handlersEnded) { lease.give(); } // what others may take over now
 * }
 * }</pre>
 *
 * An engine registers its own health and readiness checks ({@link OperatorChecks}) when it starts.
 * Every step is optional: an engine that only serves others (the indexes) has none.
 */
public interface Engine {
    /**
     * Starts; returns once the engine runs, or fails the operator's start.
     *
     * @throws InterruptedException if interrupted while starting
     */
    default void start() throws InterruptedException {
    }

    /** Stops taking new work, at once; the work in flight goes on (handlers finish in their grace period). */
    default void stopTakingWork() {
    }

    /**
     * {@return whether it answers the API server's requests (the admission webhooks)} Such an engine
     * stops taking work after the others, as controller-runtime stops its webhooks last: the API
     * server sends requests for as long as the configurations name the webhooks, and those that come
     * while the watching stops are still answered.
     */
    default boolean servesApiServer() {
        return false;
    }

    /**
     * Releases what the engine holds (servers, Leases, records, clients) once the handlers in flight
     * have ended or were abandoned.
     *
     * @param handlersEnded whether every handler ended within the grace period: what is released for
     *        others to take over (a shard's Lease) is given up at once only then
     * @throws InterruptedException if interrupted while releasing (the rest are released all the same)
     */
    default void release(boolean handlersEnded) throws InterruptedException {
    }
}
