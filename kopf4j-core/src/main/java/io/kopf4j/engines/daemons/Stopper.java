package io.kopf4j.engines.daemons;

import io.kopf4j.DaemonStopped;
import io.kopf4j.DaemonStoppingReason;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A daemon's stop flag (Kopf's {@code DaemonStopper}): reasons accumulate; the first one sets the
 * flag and wakes whoever waits on it. A future is the flag, so that a waiting virtual thread parks
 * and an async daemon can compose with it.
 */
final class Stopper implements DaemonStopped {
    private final CompletableFuture<Set<DaemonStoppingReason>> flag = new CompletableFuture<>();
    private final EnumSet<DaemonStoppingReason> reasons = EnumSet.noneOf(DaemonStoppingReason.class);

    /** Adds a reason; the first one sets the flag. {@return true if the reason is new} */
    boolean set(DaemonStoppingReason reason) {
        boolean added;
        Set<DaemonStoppingReason> snapshot;
        synchronized (reasons) {
            added = reasons.add(reason);
            snapshot = Set.copyOf(reasons);
        }
        flag.complete(snapshot);
        return added;
    }

    boolean has(DaemonStoppingReason reason) {
        synchronized (reasons) {
            return reasons.contains(reason);
        }
    }

    @Override
    public boolean isSet() {
        return flag.isDone();
    }

    @Override
    public boolean await(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            return isSet();
        }
        try {
            flag.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException | ExecutionException e) {
            // Not set within the timeout: the caller goes on.
        }
        return isSet();
    }

    @Override
    public void await() {
        try {
            flag.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
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
