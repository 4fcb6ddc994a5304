package io.kopf4j;

import java.util.Locale;

/**
 * Why changing handlers are called: Kopf's causes. Handlers see {@code CREATE}, {@code UPDATE},
 * {@code DELETE} or {@code RESUME}; the others only appear in logs.
 *
 * <pre>{@code
 * @On.Resume("kopfexamples")
 * @On.Create("kopfexamples")
 * void ensure(Reason reason, Logger logger) {
 *     logger.info("ensuring the children ({})", reason);   // create or resume
 * }
 * }</pre>
 */
public enum Reason {
    /** The object is new, or was never handled. */
    CREATE,
    /** The object's essence changed. */
    UPDATE,
    /** The object is being deleted. */
    DELETE,
    /** The object existed when the operator started. */
    RESUME,
    /** Nothing essential changed. */
    NOOP,
    /** Being deleted, but kopf4j holds no finalizer on it: nothing to do. */
    FREE,
    /** Deleted from the cluster. */
    GONE;

    /** {@return whether it is one of Kopf's handler reasons (create, update, delete, resume)}: handlers run for it. */
    public boolean runsHandlers() {
        return this == CREATE || this == UPDATE || this == DELETE || this == RESUME;
    }

    /** Kopf's spelling, as stored in progress records: {@code create}, {@code update}, ... */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
