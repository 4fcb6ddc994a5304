package io.kopf4j.internal.engines.daemons;

import io.kopf4j.Body;
import io.kopf4j.DaemonStoppingReason;
import io.kopf4j.Memo;
import io.kopf4j.Meta;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import io.kopf4j.internal.intents.DaemonCause;
import io.kopf4j.internal.intents.SpawningCause;
import io.kopf4j.internal.intents.SpawningHandler;
import io.kopf4j.internal.intents.TimerHandler;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.reactor.processing.ObjectSpawns;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;

/**
 * One object's daemons and timers (Kopf's {@code DaemonsMemory} with {@code spawn_daemons},
 * {@code match_daemons} and {@code stop_daemons}): at most one per handler, spawned while the
 * object matches, stopped when it is deleted or stops matching. A daemon that is stopping still
 * counts as running, so it is spawned again only after it has exited. When the last daemon that
 * held a deleted object settles, the object is rechecked, which releases its finalizer at once.
 *
 * <p>A lock (not a monitor: nothing blocks under it) guards the running daemons, so that a pause
 * that sweeps the objects cannot miss a daemon spawned by a concurrent event.
 */
final class ObjectDaemons implements ObjectSpawns {
    private final DaemonsEngine engine;
    private final Resource resource;
    private final Body body;
    private final Memo memo;
    private final Logger logger;
    private final Logger local;
    private final Runnable recheck;
    private final Iteration iteration;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, RunningDaemon> running = new LinkedHashMap<>();
    private final Set<String> foreverStopped = ConcurrentHashMap.newKeySet();
    /** When the object last changed essentially (Kopf's {@code idle_reset_time}): its first sight counts. */
    private volatile long idleReset = System.nanoTime();
    /** A deletion waits for daemons still stopping: recheck the object when the last one settles. */
    private volatile boolean recheckWanted;
    private volatile boolean gone;

    ObjectDaemons(DaemonsEngine engine, Resource resource, Iteration iteration, Body body, Memo memo, ObjectLogger logger,
                  Runnable recheck) {
        this.engine = engine;
        this.resource = resource;
        this.iteration = iteration;
        this.body = body;
        this.memo = memo;
        this.logger = logger;
        this.local = logger.local();
        this.recheck = recheck;
    }

    @Override
    public boolean handle(SpawningCause cause, boolean deleting) {
        if (cause.reset()) {
            idleReset = System.nanoTime();
        }
        List<RunningDaemon> stopped = new ArrayList<>();
        lock.lock();
        try {
            if (deleting) {
                running.values().forEach(daemon -> stop(daemon, DaemonStoppingReason.RESOURCE_DELETED, stopped));
            } else {
                Set<String> matching = new HashSet<>();
                for (SpawningHandler handler : engine.registry().spawningHandlers(cause, foreverStopped)) {
                    matching.add(handler.id());
                    if (!running.containsKey(handler.id()) && !engine.paused()) {
                        spawn(handler, cause);
                    }
                }
                running.values().stream().filter(daemon -> !matching.contains(daemon.handler.id()))
                        .forEach(daemon -> stop(daemon, DaemonStoppingReason.FILTERS_MISMATCH, stopped));
                if (engine.paused()) {
                    // Spawned by an event queued before the pause, or stopped by it already: never left running.
                    running.values().forEach(daemon -> stopForOperator(daemon, DaemonStoppingReason.OPERATOR_PAUSING));
                }
            }
        } finally {
            lock.unlock();
        }
        escalate(stopped);
        if (!deleting) {
            return false;
        }
        // Wanted before looking: a daemon that settles in between then rechecks (at worst once too often).
        recheckWanted = true;
        boolean holding = holding();
        recheckWanted = holding;
        return holding;
    }

    @Override
    public Set<String> foreverStopped() {
        return foreverStopped;
    }

    @Override
    public void gone() {
        gone = true;
        recheckWanted = false;
        List<RunningDaemon> stopped = new ArrayList<>();
        lock.lock();
        try {
            running.values().forEach(daemon -> stop(daemon, DaemonStoppingReason.RESOURCE_DELETED, stopped));
        } finally {
            lock.unlock();
        }
        escalate(stopped);
        engine.forgetIfIdle(this);
    }

    /** A pause or the exit: every daemon of the object stops, as Kopf's {@code stop_daemon} says. */
    void stopAll(DaemonStoppingReason reason) {
        lock.lock();
        try {
            running.values().forEach(daemon -> stopForOperator(daemon, reason));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Names the thread from the event's own body: the live body is kept as JSON bytes and parsed
     * when read, and a read here would keep every daemon's parsed body (~4 KB) in its soft cache,
     * which a large heap never clears.
     */
    private void spawn(SpawningHandler handler, SpawningCause spawning) {
        RunningDaemon daemon = new RunningDaemon(handler);
        running.put(handler.id(), daemon);
        DaemonCause cause = new DaemonCause(resource, body, new Patch(), logger, memo, daemon.stopper);
        Meta meta = new Body(spawning.raw()).meta();
        String where = meta.namespace() == null ? meta.name() : meta.namespace() + "/" + meta.name();
        String name = "kopf4j-" + daemon.kind() + "-" + where + "-" + handler.id();
        engine.metrics().daemonsRunning(daemon.kind(), handler.id()).incrementAndGet();
        if (handler instanceof TimerHandler) {
            new TimerLoop(daemon, cause, iteration, engine.timers(), engine.threads(), engine.metrics(), local,
                    () -> idleReset, name, () -> ended(daemon)).start();
        } else {
            daemon.thread = engine.threads().start(name,
                    new DaemonLoop(daemon, cause, iteration, engine.metrics(), local, () -> ended(daemon)));
        }
    }

    /** Kopf's {@code _runner} clean-up, once a daemon's or timer's loop has ended. */
    private void ended(RunningDaemon daemon) {
        lock.lock();
        try {
            if (!daemon.stopper.isSet()) {
                foreverStopped.add(daemon.handler.id());   // ended on its own: never again in this process
            }
            running.remove(daemon.handler.id(), daemon);
        } finally {
            lock.unlock();
        }
        daemon.stopper.set(DaemonStoppingReason.DONE);
        engine.metrics().daemonsRunning(daemon.kind(), daemon.handler.id()).decrementAndGet();
        daemon.exited.complete(null);
        daemon.settled.complete(null);
        settledOne(daemon);
    }

    /** A daemon exited or was abandoned: the object is processed again if that was what it waited for. */
    private void settledOne(RunningDaemon daemon) {
        if (gone) {
            engine.forgetIfIdle(this);
            return;
        }
        boolean rematch = daemon.stopper.has(DaemonStoppingReason.FILTERS_MISMATCH) && !engine.paused();
        if ((recheckWanted && !holding()) || rematch) {
            recheckWanted = false;
            recheck.run();
        }
    }

    private void stop(RunningDaemon daemon, DaemonStoppingReason reason, List<RunningDaemon> stopped) {
        daemon.stopper.set(reason);
        stopped.add(daemon);
    }

    private void stopForOperator(RunningDaemon daemon, DaemonStoppingReason reason) {
        daemon.stopper.set(reason);
        instantExit(List.of(daemon));
        engine.escalation().forOperator(daemon, reason, local);
    }

    /** Gives the daemons just stopped their instant exit, then escalates for those still running. */
    private void escalate(List<RunningDaemon> stopped) {
        if (stopped.isEmpty()) {
            return;
        }
        instantExit(stopped);
        for (RunningDaemon daemon : stopped) {
            if (!daemon.exited.isDone()) {
                DaemonStoppingReason reason = daemon.stopper.has(DaemonStoppingReason.RESOURCE_DELETED)
                        ? DaemonStoppingReason.RESOURCE_DELETED : DaemonStoppingReason.FILTERS_MISMATCH;
                engine.escalation().forObject(daemon, reason, local, () -> settledOne(daemon));
            }
        }
    }

    /**
     * Kopf's instant exit: a daemon waiting on its flag ends at once, so its object needs no second
     * cycle. {@code settings.background.instantExitTimeout} if set, else a few yields of the carrier.
     */
    private void instantExit(List<RunningDaemon> daemons) {
        var settings = engine.settings();
        for (RunningDaemon daemon : daemons) {
            if (settings.instantExitTimeout != null) {
                try {
                    daemon.exited.get(settings.instantExitTimeout.toNanos(), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (TimeoutException | ExecutionException e) {
                    // Not yet: the escalation takes over.
                }
            } else {
                for (int cycle = 0; cycle < settings.instantExitZeroTimeCycles && !daemon.exited.isDone(); cycle++) {
                    Thread.yield();
                }
            }
        }
    }

    private boolean holding() {
        lock.lock();
        try {
            return running.values().stream().anyMatch(daemon -> !daemon.settled.isDone());
        } finally {
            lock.unlock();
        }
    }

    boolean idle() {
        lock.lock();
        try {
            return running.isEmpty();
        } finally {
            lock.unlock();
        }
    }
}
