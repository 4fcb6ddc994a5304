package io.kopf4j;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The stop flag of a daemon or timer (Kopf's {@code stopped}): set when the object is deleted,
 * stops matching the filters, or the operator pauses or exits. A sync daemon checks it in its loop
 * and waits on it instead of sleeping, so that it ends at once when asked; an async daemon composes
 * with {@link #whenSet()}.
 *
 * <pre>{@code
 * @Daemon("kopfexamples")
 * void monitor(Spec spec, DaemonStopped stopped, Logger logger) {
 *     while (!stopped.isSet()) {
 *         logger.info("field={}", spec.get("field"));   // spec is live: the latest state seen
 *         stopped.await(Duration.ofSeconds(10));        // returns early when stopped
 *     }
 * }
 * }</pre>
 */
public interface DaemonStopped {
    /** {@return true once the daemon is asked to stop (Kopf's {@code bool(stopped)})} */
    boolean isSet();

    /**
     * Waits until the flag is set or the timeout passes, whichever comes first. If the thread is
     * interrupted (a cancelled sync daemon), returns at once with the interrupt flag set again.
     *
     * @param timeout how long at most
     * @return {@link #isSet()}
     */
    boolean await(Duration timeout);

    /** Waits until the flag is set (Kopf's {@code stopped.wait()}), or the thread is interrupted. */
    void await();

    /** {@return a stage completed with the reasons when the flag is set: for async daemons} */
    CompletionStage<Set<DaemonStoppingReason>> whenSet();

    /** {@return the reasons so far (Kopf's {@code stopped.reason}); empty until the flag is set} */
    Set<DaemonStoppingReason> reason();
}
