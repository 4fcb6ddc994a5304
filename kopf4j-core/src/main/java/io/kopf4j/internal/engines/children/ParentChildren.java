package io.kopf4j.internal.engines.children;

import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.actions.Outcome;
import io.kopf4j.internal.actions.State;
import io.kopf4j.internal.intents.ChildrenHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.SpawningCause;
import io.kopf4j.internal.reactor.processing.Childing;
import io.kopf4j.internal.structs.Json;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One parent's children: when its children handlers are due, and their retries. Due at the first
 * event, when the essence changed since the last run, when a child changed ({@link #request()}, from
 * the children's watch; a burst of child events while one run is queued costs that one run, as
 * client-go's work queue coalesces), and when a retry is due. Its runs are its object's events, so
 * one at a time, in the object's order; retries and child changes come back as a recheck of the
 * object, through its queue.
 *
 * <pre>{@code
 * ParentChildren children = new ParentChildren(uid, recheck, engine);
 * children.request();                    // a child changed: one recheck queued
 * children.reconcile(cause, essence);    // at the object's event: runs the handlers if due
 * }</pre>
 */
final class ParentChildren implements Childing.ObjectChildren {
    private final String uid;
    private final Runnable recheck;
    private final HandlerRegistry registry;
    private final Execution execution;
    private final ChildrenApplier applier;
    private final Pausing pausing;
    /** A child changed, or a retry is due, since the last run began. */
    private final AtomicBoolean due = new AtomicBoolean(true);
    /** The essence at the last run; null before the first. */
    private Map<String, Object> essence;
    /** Each handler's retries and start, until it succeeds, as a timer's are kept. */
    private final Map<String, State> states = new HashMap<>();
    private volatile Thread retry;
    private volatile boolean gone;

    /** Whether the operator is paused, when no child is written. */
    interface Pausing {
        boolean paused();
    }

    ParentChildren(String uid, Runnable recheck, HandlerRegistry registry, Execution execution, ChildrenApplier applier,
                   Pausing pausing) {
        this.uid = uid;
        this.recheck = recheck;
        this.registry = registry;
        this.execution = execution;
        this.applier = applier;
        this.pausing = pausing;
    }

    /** A child of this parent changed: a run is due, and a recheck is queued unless one already is. */
    void request() {
        if (!gone && !due.getAndSet(true) && !pausing.paused()) {
            recheck.run();
        }
    }

    @Override
    public void reconcile(SpawningCause cause, Map<String, Object> essence) {
        if (pausing.paused()) {
            return;   // due as it was: the resume's listing brings the object back
        }
        boolean asked = due.getAndSet(false);
        if (!asked && Json.equal(this.essence, essence)) {
            return;
        }
        this.essence = essence;
        for (ChildrenHandler handler : registry.childrenHandlers(cause)) {
            run(handler, cause);
        }
    }

    private void run(ChildrenHandler handler, SpawningCause cause) {
        State state = states.computeIfAbsent(handler.id(), id -> State.fromScratch().withHandlers(List.of(handler)));
        Outcome outcome = execution.runChildren(handler, state, cause);
        if (!outcome.finished()) {
            states.put(handler.id(), state.withOutcomes(Map.of(handler.id(), outcome)));
            retryIn(outcome.delay());
            return;
        }
        states.remove(handler.id());   // retries count from zero after it finished
        if (outcome.succeeded() && !applier.apply(handler, outcome.result(), cause, uid)) {
            retryIn(handler.backoff() != null ? handler.backoff() : execution.defaultBackoff());
        }
    }

    /** Runs again after the delay, through the object's queue. */
    private void retryIn(Duration delay) {
        Thread previous = retry;
        if (previous != null) {
            previous.interrupt();
        }
        retry = Thread.ofVirtual().name("kopf4j-children-retry-" + uid).start(() -> {
            try {
                Thread.sleep(delay);
                due.set(true);
                if (!gone && !pausing.paused()) {
                    recheck.run();   // even if a child's recheck is queued: that one may be throttled away
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();   // gone, or replaced by a newer retry
            }
        });
    }

    @Override
    public void gone() {
        gone = true;
        Thread pending = retry;
        if (pending != null) {
            pending.interrupt();
        }
    }
}
