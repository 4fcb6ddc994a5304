package io.kopf4j.internal.engines.daemons;

import io.kopf4j.Body;
import io.kopf4j.DaemonStoppingReason;
import io.kopf4j.Memo;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.clients.ObjectPatching;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.reactor.processing.ObjectSpawns;
import io.kopf4j.internal.reactor.processing.Spawning;
import io.kopf4j.internal.runtime.Engine;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * Daemons and timers (Kopf's {@code kopf/_core/engines/daemons.py}): each object's
 * {@link ObjectDaemons}, the pause and the exit of them all. Every daemon runs on its own virtual
 * thread, so ten thousand of them cost ten thousand parked virtual threads, not a thread pool that
 * starves (Kopf runs sync daemons in its handler pool). A timer has a virtual thread only while it
 * runs: between its runs it is a task of one scheduler, whose single (virtual) thread starts it.
 *
 * <pre>{@code
 * DaemonsEngine daemons = new DaemonsEngine(registry, threads, settings, metrics, execution, patcher);
 * Reactor reactor = new Reactor(..., daemons, ...);   // processing spawns them per object
 * daemons.stopTakingWork();                            // the operator exits: every daemon is told to stop
 * }</pre>
 */
public final class DaemonsEngine implements Spawning, Engine {
    private final HandlerRegistry registry;
    private final OperatorThreads threads;
    private final OperatorSettings.Background settings;
    private final Metrics metrics;
    private final Execution execution;
    private final ObjectPatching patcher;
    private final Escalation escalation;
    private final Set<ObjectDaemons> objects = ConcurrentHashMap.newKeySet();
    private final ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1,
            Thread.ofVirtual().name("kopf4j-timers").factory());
    private volatile boolean paused;

    public DaemonsEngine(HandlerRegistry registry, OperatorThreads threads, OperatorSettings settings, Metrics metrics,
                         Execution execution, ObjectPatching patcher) {
        this.registry = registry;
        this.threads = threads;
        this.settings = settings.background;
        this.metrics = metrics;
        this.execution = execution;
        this.patcher = patcher;
        this.escalation = new Escalation(threads, settings.background, metrics);
        timers.setRemoveOnCancelPolicy(true);   // a stopped timer's wake-up leaves the queue at once, not at its time
    }

    @Override
    public ObjectSpawns object(Resource resource, Body body, Memo memo, ObjectLogger logger, Runnable recheck) {
        Iteration iteration = new Iteration(execution, patcher, resource);
        ObjectDaemons daemons = new ObjectDaemons(this, resource, iteration, body, memo, logger, recheck);
        objects.add(daemons);
        return daemons;
    }

    /**
     * Stops every daemon with {@code OPERATOR_PAUSING}. The flag is set before the sweep, and each
     * object's daemons are stopped under the object's lock, so a daemon spawned by an event being
     * processed meanwhile is either stopped by the sweep or never spawned (Kopf needs a re-sweep
     * every second for it).
     */
    @Override
    public void pause() {
        paused = true;
        objects.forEach(daemons -> daemons.stopAll(DaemonStoppingReason.OPERATOR_PAUSING));
    }

    @Override
    public void resume() {
        paused = false;
    }

    /** The operator exits: stop every daemon, each as its cancellation options say; returns at once. */
    @Override
    public void stopTakingWork() {
        paused = true;
        objects.forEach(daemons -> daemons.stopAll(DaemonStoppingReason.OPERATOR_EXITING));
        timers.shutdown();   // every timer is stopped: none schedules again
    }

    boolean paused() {
        return paused;
    }

    HandlerRegistry registry() {
        return registry;
    }

    OperatorThreads threads() {
        return threads;
    }

    /** Where the timers wait between their runs. */
    ScheduledExecutorService timers() {
        return timers;
    }

    OperatorSettings.Background settings() {
        return settings;
    }

    Metrics metrics() {
        return metrics;
    }

    Escalation escalation() {
        return escalation;
    }

    /** The object is gone: kept only while its daemons still run, so that the exit stops them too. */
    void forgetIfIdle(ObjectDaemons daemons) {
        if (daemons.idle()) {
            objects.remove(daemons);
        }
    }
}
