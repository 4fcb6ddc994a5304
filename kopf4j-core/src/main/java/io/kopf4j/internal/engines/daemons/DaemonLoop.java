package io.kopf4j.internal.engines.daemons;

import io.kopf4j.internal.actions.State;
import io.kopf4j.internal.intents.DaemonCause;
import io.kopf4j.internal.runtime.Metrics;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.slf4j.Logger;

/**
 * A daemon's thread: Kopf's {@code _daemon}, then its {@code _runner} clean-up. After the initial
 * delay, the daemon is called until it finishes (a normal return, a permanent failure, its retries
 * or timeout exhausted) or is stopped; a temporary failure calls it again after its delay, an
 * arbitrary exception after its backoff. Nothing of its state is stored on the object: {@code retry}
 * counts the calls since it was spawned in this process.
 *
 * <p>The loop and the clean-up are one frame, not a runner around a loop: each frame under the
 * user's method stays on the stack of every parked daemon (docs/performance.md).
 *
 * <pre>{@code
 * threads.start(name, new DaemonLoop(daemon, cause, iteration, metrics, local, () -> ended(daemon)));
 * }</pre>
 */
final class DaemonLoop implements Runnable {
    private final RunningDaemon daemon;
    private final DaemonCause first;
    private final Iteration iteration;
    private final Metrics metrics;
    private final Logger local;
    private final Runnable ended;

    /** @param ended Kopf's {@code _runner} clean-up, run once when the daemon's loop has ended */
    DaemonLoop(RunningDaemon daemon, DaemonCause first, Iteration iteration, Metrics metrics, Logger local,
               Runnable ended) {
        this.daemon = daemon;
        this.first = first;
        this.iteration = iteration;
        this.metrics = metrics;
        this.local = local;
        this.ended = ended;
    }

    @Override
    public void run() {
        try {
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
        } catch (CancellationException e) {
            // Logged by the execution ("is cancelled. Will escalate."): the daemon ends here.
        } catch (RuntimeException e) {
            local.error("{} has failed unexpectedly; it will not be restarted.", daemon.title(), e);
        } finally {
            ended.run();
        }
    }
}
