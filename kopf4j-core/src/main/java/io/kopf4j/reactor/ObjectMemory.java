package io.kopf4j.reactor;

import java.time.Instant;

/**
 * What the operator remembers of one object between its events, until the object is deleted:
 * Kopf's {@code ResourceMemory}. All state that must survive a restart lives on the object
 * itself; this is only what may be lost.
 */
final class ObjectMemory {
    /** First seen in the initial listing, not as a live event. */
    boolean noticedByListing;
    /** All handlers finished once since the operator started: no more resuming on re-lists. */
    boolean fullyHandledOnce;
    /** The resourceVersion of our own last PATCH, until the watch delivers it. */
    String expectedVersion;
    Instant consistencyDeadline;
    /** Consecutive unexpected errors, for throttling. */
    int errors;
    /** The newest event, re-processed when a retry is due. */
    WatchEvent latest;

    boolean initial() {
        return noticedByListing && !fullyHandledOnce;
    }
}
