package io.kopf4j.internal.engines.daemons;

import io.kopf4j.DaemonStopped;
import io.kopf4j.DaemonStoppingReason;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A daemon's stop flag (Kopf's {@code DaemonStopper}): reasons accumulate; the first one sets the
 * flag and wakes whoever waits on it. Waiters park directly (not through the future's get), which
 * keeps ten thousand parked daemons' stacks 5 frames shorter and allocates nothing per wait; the
 * future is for async daemons to compose with.
 */
final class Stopper implements DaemonStopped {
    private final CompletableFuture<Set<DaemonStoppingReason>> flag = new CompletableFuture<>();
    private final EnumSet<DaemonStoppingReason> reasons = EnumSet.noneOf(DaemonStoppingReason.class);
    private final Set<Thread> waiting = ConcurrentHashMap.newKeySet();
    private volatile boolean set;

    /** Adds a reason; the first one sets the flag. {@return true if the reason is new} */
    boolean set(DaemonStoppingReason reason) {
        boolean added;
        Set<DaemonStoppingReason> snapshot;
        synchronized (reasons) {
            added = reasons.add(reason);
            snapshot = Set.copyOf(reasons);
        }
        set = true;
        waiting.forEach(LockSupport::unpark);
        flag.complete(snapshot);
        return added;
    }

    /**
     * Runs the action once, on the thread that first sets the flag (at once if it is set already):
     * how a timer between its runs, on no thread, learns that it is stopped.
     */
    void onSet(Runnable action) {
        flag.thenRun(action);
    }

    boolean has(DaemonStoppingReason reason) {
        synchronized (reasons) {
            return reasons.contains(reason);
        }
    }

    @Override
    public boolean isSet() {
        return set;
    }

    /**
     * Parks until the flag is set, the timeout passes, or an interrupt (kept set). The wait is here,
     * not in a helper that both waits call: the frame a parked daemon keeps above the user's method
     * is kept twice once the daemon has woken (docs/performance.md).
     */
    @Override
    public boolean await(Duration timeout) {
        // Saturated where Duration.toNanos would throw: Long.MAX_VALUE nanoseconds or more is no deadline at all.
        long nanos = Math.max(0, TimeUnit.NANOSECONDS.convert(timeout));
        long deadline = nanos == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + nanos;
        Thread current = Thread.currentThread();
        waiting.add(current);
        try {
            while (!set && !current.isInterrupted()) {
                if (deadline == Long.MAX_VALUE) {
                    LockSupport.park(this);
                } else {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    LockSupport.parkNanos(this, left);
                }
            }
        } finally {
            waiting.remove(current);
        }
        return set;
    }

    @Override
    public void await() {
        await(Duration.ofSeconds(Long.MAX_VALUE));
    }

    @Override
    public CompletionStage<Set<DaemonStoppingReason>> whenSet() {
        return flag.minimalCompletionStage();
    }

    @Override
    public Set<DaemonStoppingReason> reason() {
        synchronized (reasons) {
            return Collections.unmodifiableSet(EnumSet.copyOf(reasons));
        }
    }

    @Override
    public String toString() {
        return isSet() ? "stopped " + reason() : "running";
    }
}
