package io.kopf4j.internal.engines.daemons;

import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.internal.actions.State;
import io.kopf4j.internal.intents.DaemonCause;
import io.kopf4j.internal.intents.TimerHandler;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Kopf's {@code _timer}: after the initial delay, runs the timer until it is stopped, one run at a
 * time (so it never overlaps itself). With {@code idle}, a run waits until the object has had no
 * essential change for that long. After a success (or a final failure) the next run comes after
 * {@code interval} from the end of this one, or, {@code sharp}, on the grid of {@code interval} from
 * this run's start; after a failure to retry, after its delay or backoff. A timer with neither
 * interval nor idle runs once. Unlike Kopf, an idle-only timer that waits for a change also ends
 * when stopped.
 *
 * <p>Between its runs a timer has no thread: each wait is a task of the engine's scheduler, whose
 * wake-up starts a virtual thread that runs the timer up to its next wait and ends. A thousand timers
 * then keep a thousand scheduled tasks of a few dozen bytes, not a thousand parked virtual threads
 * with their stacks (~5 KB each). The stop flag cancels a pending wake-up and ends the timer at once,
 * as Kopf's sleep wakes up on it; a run in flight finishes first.
 *
 * <pre>{@code
 * new TimerLoop(daemon, cause, iteration, scheduler, threads, metrics, local, idleReset, name, ended).start();
 * }</pre>
 */
final class TimerLoop {
    /** Where the timer is between two steps: before its initial delay, due to run, or waiting for a change (idle-only). */
    private enum Phase { STARTING, DUE, AWAITING_CHANGE }

    private final RunningDaemon daemon;
    private final TimerHandler timer;
    /** The timer's options: the interval (or null), on the interval's grid, the quiet time (or null). */
    private final Duration interval;
    private final boolean sharp;
    private final Duration idle;
    private final Iteration iteration;
    private final ScheduledExecutorService scheduler;
    private final OperatorThreads threads;
    private final Metrics metrics;
    private final Logger local;
    private final LongSupplier idleReset;
    private final String threadName;
    private final Runnable ended;
    private DaemonCause cause;
    private State state;
    private Phase phase = Phase.STARTING;
    /** When the next run was due (nanoTime), for its lag. */
    private long planned;
    /** When the last run started (nanoTime): an idle-only timer waits for a change after it. */
    private long lastStarted;
    /** The pending wake-up, while the timer waits; whoever takes it out of here moves the timer on. */
    private ScheduledFuture<?> wakeUp;

    /**
     * @param idleReset the nanoTime of the object's last essential change
     * @param ended     Kopf's {@code _runner} clean-up, run once when the timer ends
     */
    TimerLoop(RunningDaemon daemon, DaemonCause cause, Iteration iteration, ScheduledExecutorService scheduler,
              OperatorThreads threads, Metrics metrics, Logger local, LongSupplier idleReset, String threadName, Runnable ended) {
        this.daemon = daemon;
        this.timer = (TimerHandler) daemon.handler;
        this.interval = timer.options().get(Option.Interval.class).map(Option.Interval::period).orElse(null);
        this.sharp = timer.options().has(Option.Sharp.class);
        this.idle = timer.options().get(Option.Idle.class).map(Option.Idle::quiet).orElse(null);
        this.cause = cause;
        this.iteration = iteration;
        this.scheduler = scheduler;
        this.threads = threads;
        this.metrics = metrics;
        this.local = local;
        this.idleReset = idleReset;
        this.threadName = threadName;
        this.ended = ended;
    }

    /** The first step, on a thread of its own; the stop flag from now on cuts a wait short. */
    void start() {
        daemon.stopper.onSet(this::stopWaiting);
        threads.start(threadName, this::step);
    }

    /** Runs the timer up to its next wait, which it schedules, or to its end. */
    private void step() {
        boolean waiting = false;
        try {
            Duration wait = advance();
            waiting = wait != null && sleep(wait);
        } catch (CancellationException e) {
            // Logged by the execution ("is cancelled. Will escalate."): the timer ends here.
        } catch (RuntimeException e) {
            local.error("{} has failed unexpectedly; it will not be restarted.", daemon.title(), e);
        } finally {
            if (!waiting) {
                ended.run();
            }
        }
    }

    /** {@return how long to wait before the next step, or null when the timer ends (stopped, or a one-shot that ran)} */
    private Duration advance() {
        while (!daemon.stopper.isSet()) {
            long now = System.nanoTime();
            if (phase == Phase.STARTING) {
                phase = Phase.DUE;
                state = State.fromScratch().withHandlers(List.of(timer));
                Duration delay = Iteration.initialDelay(timer, cause);
                planned = delay == null ? now : now + delay.toNanos();
                if (delay != null) {
                    return delay;
                }
            } else if (phase == Phase.AWAITING_CHANGE) {
                if (idleReset.getAsLong() <= lastStarted) {
                    return idle;
                }
                phase = Phase.DUE;
                planned = now;
            } else {
                if (idle != null) {
                    long left = idleReset.getAsLong() + idle.toNanos() - now;
                    if (left > 0) {
                        planned = now + left;
                        return Duration.ofNanos(left);
                    }
                }
                Duration wait = run();
                if (wait == null) {
                    return null;   // neither interval nor idle: a one-shot
                }
                if (wait.isPositive()) {
                    return wait;
                }
            }
        }
        return null;
    }

    /** One run and its outcome; {@return the wait before the next run (an idle-only timer's: zero, it then waits for a change), or null for none} */
    private Duration run() {
        if (state.done()) {
            state = State.fromScratch().withHandlers(List.of(timer));   // retries count from zero after a success
        }
        long started = System.nanoTime();
        metrics.timerLag(timer.id(), Duration.ofNanos(Math.max(0, started - planned)));
        Iteration.Done done = iteration.run(timer, state, cause, local);
        state = done.state();
        cause = done.next();
        Duration wait;
        if (!state.done()) {
            wait = state.delay().orElse(Duration.ZERO);
        } else if (interval != null && sharp) {
            long period = interval.toNanos();
            wait = Duration.ofNanos(period - (System.nanoTime() - started) % period);
        } else if (interval != null) {
            wait = interval;
        } else if (idle != null) {
            phase = Phase.AWAITING_CHANGE;
            lastStarted = started;
            return Duration.ZERO;
        } else {
            return null;
        }
        planned = System.nanoTime() + wait.toNanos();
        return wait;
    }

    /** Schedules the next step; false if the timer was stopped meanwhile (it then ends now). */
    private synchronized boolean sleep(Duration wait) {
        if (daemon.stopper.isSet()) {
            return false;
        }
        wakeUp = scheduler.schedule(this::wake, wait.toNanos(), TimeUnit.NANOSECONDS);
        return true;
    }

    /** The wait is over: the next step, on a new thread, unless the stop flag took the wake-up first. */
    private void wake() {
        synchronized (this) {
            if (wakeUp == null) {
                return;
            }
            wakeUp = null;
        }
        threads.start(threadName, this::step);
    }

    /** The stop flag is set: a timer that waits ends now (on a thread, as it would have after its wait); a running one at its step's end. */
    private void stopWaiting() {
        ScheduledFuture<?> pending;
        synchronized (this) {
            pending = wakeUp;
            wakeUp = null;
        }
        if (pending != null) {
            pending.cancel(false);
            threads.start(threadName, ended);
        }
    }
}
