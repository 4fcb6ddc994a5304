package io.kopf4j.internal.engines.daemons;

import io.kopf4j.DaemonStoppingReason;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.intents.DaemonHandler;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import io.kopf4j.internal.structs.DurationTexts;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;

/**
 * What happens to a daemon told to stop that has not exited at once, step by step on a virtual
 * thread that waits for its exit: Kopf's {@code stop_daemons} for a deletion or a filters mismatch
 * (a grace of {@code cancellationBackoff}, then the cancellation and {@code cancellationTimeout},
 * then abandonment; without a timeout, reported every {@code cancellationPolling} until it exits),
 * and Kopf's {@code stop_daemon} for a pause or the exit (the same, but abandoned at the end
 * whatever the options). Timers have no cancellation options: they are awaited.
 *
 * <p>Cancelling means interrupting the daemon's thread: an async daemon's awaited future is then
 * cancelled, a sync daemon's blocking call ends. A sync daemon without a timeout is never interrupted,
 * as Kopf never cancels a sync daemon.
 */
final class Escalation {
    /**
     * Kopf's instant exit lets a stopped daemon end within a few cycles of its event loop, which
     * runs every waiting coroutine at once. Java's threads have no such cycle: a daemon woken from
     * its flag needs a carrier first. Without this grace (or {@code settings.background.instantExitTimeout})
     * every busy shutdown would abandon daemons that were ending anyway, with a warning each.
     */
    private static final Duration INSTANT_EXIT_GRACE = Duration.ofMillis(100);

    private final OperatorThreads threads;
    private final OperatorSettings.Background settings;
    private final Metrics metrics;

    Escalation(OperatorThreads threads, OperatorSettings.Background settings, Metrics metrics) {
        this.threads = threads;
        this.settings = settings;
        this.metrics = metrics;
    }

    /** Kopf's {@code stop_daemons}: the multi-stage stop of a deleted or mismatching object's daemon. */
    void forObject(RunningDaemon daemon, DaemonStoppingReason reason, Logger logger, Runnable abandoned) {
        if (!daemon.escalatingForObject.compareAndSet(false, true)) {
            return;
        }
        threads.start("kopf4j-daemon-stop-" + daemon.handler.id(), () -> {
            if (exits(daemon, instantExitGrace())) {
                return;
            }
            Duration backoff = option(daemon, true);
            Duration timeout = option(daemon, false);
            Duration polling = polling(daemon);
            if (backoff != null && signal(daemon, logger, backoff)) {
                finished(daemon, reason, "exited");
                return;
            }
            if (timeout != null) {
                if (escalateToCancellation(daemon, reason, logger, timeout)) {
                    abandoned.run();
                }
                return;
            }
            do {
                logger.debug("{} is still exiting. The next check is in {} seconds.", daemon.title(),
                        DurationTexts.seconds(polling));
            } while (!exits(daemon, polling) && !Thread.currentThread().isInterrupted());
            if (daemon.exited.isDone()) {
                finished(daemon, reason, "exited");
            }
        });
    }

    /** Kopf's {@code stop_daemon}: the linear stop at a pause or the exit, abandoned at the end. */
    void forOperator(RunningDaemon daemon, DaemonStoppingReason reason, Logger logger) {
        if (!daemon.escalatingForOperator.compareAndSet(false, true)) {
            return;
        }
        threads.start("kopf4j-daemon-stop-" + daemon.handler.id(), () -> {
            if (exits(daemon, instantExitGrace())) {
                logger.debug("{} has exited gracefully.", daemon.title());
                return;
            }
            Duration backoff = option(daemon, true);
            Duration timeout = option(daemon, false);
            if (backoff != null && signal(daemon, logger, backoff)) {
                finished(daemon, reason, "exited");
                return;
            }
            escalateToCancellation(daemon, reason, logger, timeout == null ? Duration.ZERO : timeout);
        });
    }

    /** The graceful stage; true if the daemon exited within it. */
    private boolean signal(RunningDaemon daemon, Logger logger, Duration backoff) {
        if (daemon.stopper.set(DaemonStoppingReason.DAEMON_SIGNALLED)) {
            logger.debug("{} is signalled to exit gracefully.", daemon.title());
        }
        return exits(daemon, backoff);
    }

    /** The forced stage (if given time), then abandonment; true if abandoned. */
    private boolean escalateToCancellation(RunningDaemon daemon, DaemonStoppingReason reason, Logger logger, Duration timeout) {
        if (!timeout.isZero()) {
            if (daemon.stopper.set(DaemonStoppingReason.DAEMON_CANCELLED)) {
                logger.debug("{} is signalled to exit by force.", daemon.title());
            }
            Thread thread = daemon.thread;
            if (thread != null) {
                thread.interrupt();
            }
            if (exits(daemon, timeout)) {
                finished(daemon, reason, "exited");
                return false;
            }
        }
        if (daemon.exited.isDone()) {
            finished(daemon, reason, "exited");
            return false;
        }
        if (daemon.stopper.set(DaemonStoppingReason.DAEMON_ABANDONED)) {
            logger.warn("{} did not exit in time. Leaving it orphaned.", daemon.title());
        }
        daemon.settled.complete(null);
        finished(daemon, reason, "abandoned");
        return true;
    }

    private void finished(RunningDaemon daemon, DaemonStoppingReason reason, String outcome) {
        metrics.daemonStop(daemon.kind(), reason.name().toLowerCase(Locale.ROOT), outcome);
    }

    /** Waits for the daemon's exit; false if it has not exited within the time (or the operator is leaving). */
    private static boolean exits(RunningDaemon daemon, Duration within) {
        try {
            daemon.exited.get(within.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return daemon.exited.isDone();
        } catch (ExecutionException e) {
            return true;
        }
    }

    /** A daemon's {@code cancellationBackoff} (or {@code cancellationTimeout}); timers have neither. */
    private static Duration option(RunningDaemon daemon, boolean backoff) {
        if (daemon.handler instanceof DaemonHandler handler) {
            return backoff
                    ? handler.options().get(Option.CancellationBackoff.class).map(Option.CancellationBackoff::delay).orElse(null)
                    : handler.options().get(Option.CancellationTimeout.class).map(Option.CancellationTimeout::limit).orElse(null);
        }
        return null;
    }

    private Duration instantExitGrace() {
        return settings.instantExitTimeout != null ? settings.instantExitTimeout : INSTANT_EXIT_GRACE;
    }

    private Duration polling(RunningDaemon daemon) {
        if (daemon.handler instanceof DaemonHandler handler) {
            return handler.options().get(Option.CancellationPolling.class).map(Option.CancellationPolling::period)
                    .orElse(settings.cancellationPolling);
        }
        return settings.cancellationPolling;
    }
}
