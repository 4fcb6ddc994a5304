package io.kopf4j;

/**
 * Why a daemon or timer is asked to stop (Kopf's {@code kopf.DaemonStoppingReason}). Reasons
 * accumulate: a daemon stopped for its object's deletion and then cancelled sees both
 * {@link #RESOURCE_DELETED} and {@link #DAEMON_CANCELLED} in {@link DaemonStopped#reason()}.
 *
 * <pre>{@code
 * @Daemon("kopfexamples")
 * void monitor(DaemonStopped stopped, Logger logger) {
 *     while (!stopped.isSet()) stopped.await(Duration.ofSeconds(10));
 *     if (stopped.reason().contains(DaemonStoppingReason.RESOURCE_DELETED)) logger.info("The object is gone.");
 * }
 * }</pre>
 */
public enum DaemonStoppingReason {
    /** The daemon has ended, whatever the cause (set last, when its thread ends). */
    DONE,
    /** The object no longer matches the daemon's filters (labels, annotations, field, when). */
    FILTERS_MISMATCH,
    /** The object is being deleted. */
    RESOURCE_DELETED,
    /** The operator pauses (peering, a lost leadership). */
    OPERATOR_PAUSING,
    /** The operator exits. */
    OPERATOR_EXITING,
    /** The graceful stage: the daemon has its {@code cancellationBackoff} to exit on its own. */
    DAEMON_SIGNALLED,
    /** The forced stage: an async daemon's future is cancelled, a sync daemon's thread is interrupted. */
    DAEMON_CANCELLED,
    /** The daemon did not exit within {@code cancellationTimeout} and is left running, orphaned. */
    DAEMON_ABANDONED
}
