package io.kopf4j.engines.daemons;

import io.kopf4j.actions.State;
import io.kopf4j.intents.DaemonCause;
import io.kopf4j.intents.TimerHandler;
import io.kopf4j.runtime.Metrics;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Kopf's {@code _timer}: after the initial delay, runs the timer until it is stopped, one run at a
 * time on its own thread (so it never overlaps itself). With {@code idle}, a run waits until the
 * object has had no essential change for that long. After a success (or a final failure) the next
 * run comes after {@code interval} from the end of this one, or, {@code sharp}, on the grid of
 * {@code interval} from this run's start; after a failure to retry, after its delay or backoff. A
 * timer with neither interval nor idle runs once. Unlike Kopf, an idle-only timer that waits for a
 * change also ends when stopped.
 */
final class TimerLoop {
    private TimerLoop() {
    }

    /**
     * @param idleReset the nanoTime of the object's last essential change
     */
    static void run(RunningDaemon daemon, DaemonCause first, Iteration iteration, Metrics metrics, Logger local,
                    LongSupplier idleReset) {
        TimerHandler timer = (TimerHandler) daemon.handler;
        Stopper stopper = daemon.stopper;
        Duration delay = Iteration.initialDelay(timer, first);
        if (delay != null) {
            stopper.await(delay);
        }
        State state = State.fromScratch().withHandlers(List.of(timer));
        DaemonCause cause = first;
        long planned = System.nanoTime();
        while (!stopper.isSet()) {
            if (state.done()) {
                state = State.fromScratch().withHandlers(List.of(timer));
            }
            if (timer.idle() != null) {
                long left;
                while (!stopper.isSet() && (left = idleReset.getAsLong() + timer.idle().toNanos() - System.nanoTime()) > 0) {
                    stopper.await(Duration.ofNanos(left));
                    planned = System.nanoTime();
                }
                if (stopper.isSet()) {
                    break;
                }
            }
            long started = System.nanoTime();
            metrics.timerLag(timer.id(), Duration.ofNanos(Math.max(0, started - planned)));
            Iteration.Done done = iteration.run(timer, state, cause, local);
            state = done.state();
            cause = done.next();
            Duration wait;
            if (!state.done()) {
                wait = state.delay().orElse(Duration.ZERO);
            } else if (timer.interval() != null && timer.sharp()) {
                long interval = timer.interval().toNanos();
                wait = Duration.ofNanos(interval - (System.nanoTime() - started) % interval);
            } else if (timer.interval() != null) {
                wait = timer.interval();
            } else if (timer.idle() != null) {
                while (!stopper.isSet() && idleReset.getAsLong() <= started) {
                    stopper.await(timer.idle());
                }
                planned = System.nanoTime();
                continue;
            } else {
                break;   // neither interval nor idle: a one-shot
            }
            planned = System.nanoTime() + wait.toNanos();
            stopper.await(wait);
        }
    }
}
