package io.kopf4j.internal.intents;

import io.kopf4j.Diff;
import io.kopf4j.Reason;

/**
 * A cause without a change: what event handlers, daemons and timers see. They have no reason, no
 * diff, no old or new essence (Kopf gives them none).
 */
sealed interface UnchangingCause extends Cause permits WatchingCause, SpawningCause, DaemonCause {
    /** The empty diff, shared. */
    Diff NO_DIFF = Diff.between(null, null);

    @Override
    default Reason reason() {
        return null;
    }

    @Override
    default Diff diff() {
        return NO_DIFF;
    }

    @Override
    default Object old() {
        return null;
    }

    @Override
    default Object current() {
        return null;
    }
}
