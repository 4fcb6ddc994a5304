package io.kopf4j.internal.intents;

import io.kopf4j.Diff;
import io.kopf4j.Reason;

/** Kopf's cause detection for changing handlers: the first matching rule wins. */
public final class Causes {
    private Causes() {
    }

    /**
     * @param deletedEvent the watch event says the object is gone
     * @param deleting the object has a deletionTimestamp
     * @param finalizerPresent our finalizer is on the object
     * @param handledBefore a diff-base is stored on the object
     * @param diff the essential difference since the last handling
     * @param initial the object is seen for the first time since the operator started
     */
    public static Reason detect(boolean deletedEvent, boolean deleting, boolean finalizerPresent,
                                boolean handledBefore, Diff diff, boolean initial) {
        if (deletedEvent) {
            return Reason.GONE;
        }
        if (deleting) {
            return finalizerPresent ? Reason.DELETE : Reason.FREE;
        }
        if (!handledBefore) {
            return Reason.CREATE;
        }
        if (diff.isEmpty()) {
            return initial ? Reason.RESUME : Reason.NOOP;
        }
        return Reason.UPDATE;
    }
}
