package io.kopf4j.engines.daemons;

import io.kopf4j.actions.State;
import io.kopf4j.intents.DaemonCause;
import io.kopf4j.runtime.Metrics;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;

/**
 * Kopf's {@code _daemon}: after the initial delay, the daemon is called until it finishes (a normal
 * return, a permanent failure, its retries or timeout exhausted) or is stopped; a temporary failure
 * calls it again after its delay, an arbitrary exception after its backoff. Nothing of its state is
 * stored on the object: {@code retry} counts the calls since it was spawned in this process.
 */
final class DaemonLoop {
    private DaemonLoop() {
    }

    static void run(RunningDaemon daemon, DaemonCause first, Iteration iteration, Metrics metrics, Logger local) {
        Stopper stopper = daemon.stopper;
        Duration delay = Iteration.initialDelay(daemon.handler, first);
        if (delay != null) {
            stopper.await(delay);
        }
        State state = State.fromScratch().withHandlers(List.of(daemon.handler));
        DaemonCause cause = first;
        while (!stopper.isSet() && !state.done()) {
            Iteration.Done done = iteration.run(daemon.handler, state, cause, local);
            state = done.state();
            cause = done.next();
            if (!state.done() && !stopper.isSet()) {
                if (done.outcome() != null) {
                    metrics.daemonRestart(daemon.handler.id(), done.restartCause());
                }
                state.delay().filter(wait -> !wait.isZero()).ifPresent(stopper::await);
            }
        }
        first.logger().debug(stopper.isSet()
                ? "{} has exited on request and will not be retried or restarted."
                : "{} has exited on its own and will not be retried or restarted.", daemon.title());
    }
}
