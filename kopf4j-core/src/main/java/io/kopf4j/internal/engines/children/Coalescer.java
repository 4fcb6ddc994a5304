package io.kopf4j.internal.engines.children;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Child events become parent runs as client-go's work queue makes them: a parent already queued is
 * not queued again; one running is marked, and queued once more when its run ends. A burst of child
 * events (a Deployment, its ReplicaSet, their statuses) so costs at most one queued and one more run,
 * never one per event, and with no time window to wait out (Kopf 1.44 dropped its batching window).
 * The object queues themselves keep every event in order, which is why this is done before them.
 *
 * <pre>{@code
 * Coalescer runs = new Coalescer(uid -> queues.dispatch(recheckOf(uid)));
 * runs.request(uid);    // from a child event
 * runs.started(uid);    // when the parent's run begins
 * runs.finished(uid);   // and ends: queued again if a child changed meanwhile
 * }</pre>
 */
final class Coalescer {
    private enum State { QUEUED, RUNNING, RUNNING_AND_ASKED_AGAIN }

    private final Map<String, State> states = new HashMap<>();
    private final Consumer<String> dispatch;

    Coalescer(Consumer<String> dispatch) {
        this.dispatch = dispatch;
    }

    /** A child of this parent changed: run it, unless it is queued; once more after its run, if running. */
    void request(String parent) {
        boolean queue;
        synchronized (this) {
            State state = states.get(parent);
            queue = state == null;
            if (queue) {
                states.put(parent, State.QUEUED);
            } else if (state == State.RUNNING) {
                states.put(parent, State.RUNNING_AND_ASKED_AGAIN);
            }
        }
        if (queue) {
            dispatch.accept(parent);
        }
    }

    /** The parent's run begins: what changes from now on needs another run. */
    synchronized void started(String parent) {
        states.put(parent, State.RUNNING);
    }

    /** The parent's run ended: queued again if asked meanwhile, else forgotten. */
    void finished(String parent) {
        boolean again;
        synchronized (this) {
            again = states.get(parent) == State.RUNNING_AND_ASKED_AGAIN;
            if (again) {
                states.put(parent, State.QUEUED);
            } else {
                states.remove(parent);
            }
        }
        if (again) {
            dispatch.accept(parent);
        }
    }

    /** The parent is gone: nothing more for it. */
    synchronized void forget(String parent) {
        states.remove(parent);
    }
}
