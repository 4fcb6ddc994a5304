package io.kopf4j.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * The operator's process while a benchmark measures it: spawned with its output to a log file,
 * waited on while it lives (a wait fails within a second when it has exited, rather than at its
 * timeout), and stopped at the end (SIGTERM, then SIGKILL after 30 s).
 *
 * <pre>{@code
 * try (OperatorProcess operator = OperatorProcess.start(command, log)) {
 *     long at = operator.await(tracker, "ex-1", Duration.ofMinutes(1), objects -> objects.containsKey("ex-1"));
 *     operator.awaitAtLeast("1 daemon running", 1, Duration.ofMinutes(1), Duration.ofMillis(250), this::daemonsRunning);
 *     double cpu = ProcessStats.cpuSeconds(operator.pid());
 * }
 * }</pre>
 */
final class OperatorProcess implements AutoCloseable {
    private static final Duration ALIVE_CHECK = Duration.ofSeconds(1);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    /**
     * A figure read from the operator (its metrics, its probe), for {@link #awaitAtLeast}.
     *
     * <pre>{@code
     * Reading timers = () -> PrometheusText.sum(metrics.get(), "kopf4j_daemons_running", Map.of("kind", "timer"));
     * }</pre>
     */
    @FunctionalInterface
    interface Reading {
        double read() throws IOException, InterruptedException;
    }

    private final Process process;
    private final long spawnedNanos;

    private OperatorProcess(Process process, long spawnedNanos) {
        this.process = process;
        this.spawnedNanos = spawnedNanos;
    }

    /** Spawns the command, its output and errors to {@code log}. */
    static OperatorProcess start(ProcessBuilder command, Path log) throws IOException {
        long spawned = System.nanoTime();
        return new OperatorProcess(command.redirectErrorStream(true).redirectOutput(log.toFile()).start(), spawned);
    }

    long pid() {
        return process.pid();
    }

    /** When it was spawned, in {@link System#nanoTime()}. */
    long spawnedNanos() {
        return spawnedNanos;
    }

    /**
     * Waits until the benchmark's watch sees the objects satisfy the condition; returns when the
     * event arrived that made them so (see {@link ObjectTracker#await}).
     */
    long await(ObjectTracker tracker, String what, Duration timeout, Predicate<Map<String, GenericKubernetesResource>> condition)
            throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return tracker.await(what, condition, Math.min(deadline, System.nanoTime() + ALIVE_CHECK.toNanos()));
            } catch (TimeoutException e) {
                requireAlive(what);
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }

    /**
     * Reads the figure every {@code every} until it is at least {@code target}; returns when it was
     * read so, in {@link System#nanoTime()} (so to the poll's precision).
     *
     * @throws TimeoutException with the last reading, if it did not get there in time
     */
    long awaitAtLeast(String what, double target, Duration timeout, Duration every, Reading reading)
            throws IOException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            requireAlive(what);
            double value = reading.read();
            long readAt = System.nanoTime();
            if (value >= target) {
                return readAt;
            }
            if (readAt > deadline) {
                throw new TimeoutException(String.format(Locale.ROOT, "timed out waiting for %s: %.1f of %.1f", what, value, target));
            }
            Thread.sleep(every);
        }
    }

    /** @throws IllegalStateException if the operator has exited */
    void requireAlive(String before) {
        if (!process.isAlive()) {
            throw new IllegalStateException("the operator exited (code " + process.exitValue() + ") before " + before);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();   // not left running behind an interrupted benchmark
            Thread.currentThread().interrupt();
        }
    }
}
