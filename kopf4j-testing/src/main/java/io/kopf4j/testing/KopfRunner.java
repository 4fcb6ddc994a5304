package io.kopf4j.testing;

import io.kopf4j.Operator;
import io.kopf4j.envtest.DefaultKubeconfig;
import io.kopf4j.internal.loading.RunOptions;
import io.kopf4j.internal.logging.LogSetup;
import io.kopf4j.internal.runtime.OperatorThreads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.MDC;
import picocli.CommandLine;

/**
 * Runs an operator in a background thread of this JVM with {@code kopf4j run} arguments, as Kopf's
 * {@code kopf.testing.KopfRunner} does: for tests that check what an operator does to a real
 * cluster. Closing it stops the operator gracefully and rethrows the operator's failure, if any.
 * While it runs, its kubeconfig is this JVM's default ({@link DefaultKubeconfig}), so that clients
 * that handlers build themselves reach the same cluster.
 *
 * <pre>{@code
 * try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-n", "default", "Example.java")) {
 *     // create objects, then:
 *     await().until(() -> runner.output().contains("Handler 'create' succeeded."));
 * }
 * }</pre>
 */
public final class KopfRunner implements AutoCloseable {
    /** The exit code of an operator that stopped normally, as the command line's. */
    public static final int OK = 0;
    /** The exit code of an operator that failed, as the command line's. */
    public static final int FAILED = 1;
    /** The exit code of bad arguments, as the command line's. */
    public static final int USAGE = 2;

    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final Path kubeconfig;
    private final String[] args;
    private final Duration timeout;
    private final LogCapture capture = new LogCapture();
    private final CountDownLatch started = new CountDownLatch(1);
    private final Thread thread;
    private volatile Operator operator;
    private volatile Integer exitCode;
    private volatile Throwable exception;
    private volatile boolean closed;

    private KopfRunner(Path kubeconfig, Duration timeout, String[] args) {
        this.kubeconfig = kubeconfig;
        this.timeout = timeout;
        this.args = args.clone();
        this.thread = new Thread(this::run, "kopf4j-runner");
        this.thread.setDaemon(true);
    }

    /**
     * Starts {@code kopf4j run ...} against the cluster of {@code kubeconfig} (which overrides any
     * {@code --kubeconfig} in the arguments) and returns once the operator has listed the objects
     * that exist (so that objects created afterwards are seen as new), or has failed to start.
     *
     * @param kubeconfig the cluster's kubeconfig, e.g. {@code cluster.kubeconfig()}
     * @param args the command line, starting with {@code run}
     * @return the runner, which {@link #close()} stops; {@link #close()} waits 30 seconds for the operator to end
     */
    public static KopfRunner start(Path kubeconfig, String... args) {
        return start(kubeconfig, DEFAULT_TIMEOUT, args);
    }

    /**
     * As {@link #start(Path, String...)}, with the time {@link #close()} waits for a graceful stop.
     *
     * @param kubeconfig the cluster's kubeconfig, e.g. {@code cluster.kubeconfig()}
     * @param timeout how long {@link #close()} waits, e.g. {@code Duration.ofSeconds(60)}
     * @param args the command line, starting with {@code run}, e.g. {@code "run", "-n", "default", "Handlers.java"}
     * @return the runner, which {@link #close()} stops
     * @throws IllegalArgumentException if the arguments do not start with {@code run}
     */
    public static KopfRunner start(Path kubeconfig, Duration timeout, String... args) {
        if (args.length == 0 || !"run".equals(args[0])) {
            throw new IllegalArgumentException("KopfRunner runs 'run ...' commands, got " + Arrays.toString(args));
        }
        KopfRunner runner = new KopfRunner(kubeconfig, timeout, args);
        runner.thread.start();
        try {
            runner.started.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return runner;
    }

    /**
     * Every log line so far, formatted as {@code kopf4j run} prints them.
     *
     * @return the lines, in order; empty before the first
     */
    public String output() {
        return capture.output();
    }

    /** {@return how many times each handler, activity, daemon or timer has succeeded so far ({@link HandlerOutcomes})} */
    public Map<String, Integer> successCounts() {
        return HandlerOutcomes.successes(output());
    }

    /** {@return how many times each has failed for good so far ({@link HandlerOutcomes})} */
    public Map<String, Integer> failureCounts() {
        return HandlerOutcomes.failures(output());
    }

    /**
     * The exit code once the operator has ended, else null.
     *
     * @return {@link #OK}, {@link #FAILED} or {@link #USAGE}; null while it runs
     */
    public Integer exitCode() {
        return exitCode;
    }

    /**
     * What ended the operator abnormally, or null.
     *
     * @return the exception that the operator failed with; null while it runs, or if it stopped normally
     */
    public Throwable exception() {
        return exception;
    }

    /** {@return whether the operator's thread is still alive} */
    public boolean isRunning() {
        return thread.isAlive();
    }

    /**
     * Waits until every watched resource has been listed once: handlers have seen existing objects.
     *
     * @param wait the longest wait, e.g. {@code Duration.ofSeconds(10)}
     * @return true if all were listed in time; false if not, or if the operator has not started
     * @throws InterruptedException if this thread is interrupted while waiting
     */
    public boolean awaitListed(Duration wait) throws InterruptedException {
        Operator current = operator;
        return current != null && current.awaitListed(wait);
    }

    /**
     * Stops the operator, waits for it to end, and rethrows its failure, if any. A second call does
     * nothing.
     *
     * @throws IllegalStateException if it does not end within the timeout
     */
    @Override
    public void close() {
        if (closed) {
            return;   // idempotent: a test's own close and its harness's do not report a failure twice
        }
        closed = true;
        Operator current = operator;
        if (current != null) {
            current.stop();
        }
        try {
            thread.join(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            capture.detach();
        }
        if (thread.isAlive()) {
            throw new IllegalStateException("the operator did not stop within " + timeout.toSeconds() + " s");
        }
        if (exception instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (exception != null) {
            throw new IllegalStateException("the operator failed: " + exception, exception);
        }
    }

    private void run() {
        DefaultKubeconfig defaultKubeconfig = kubeconfig == null ? null : DefaultKubeconfig.use(kubeconfig);
        try {
            RunOptions options = new RunOptions();
            new CommandLine(options).parseArgs(Arrays.copyOfRange(args, 1, args.length));
            LogSetup.configure(options.verbose(), options.quiet());
            Operator.Builder builder = options.operatorBuilder();
            if (kubeconfig != null) {
                builder.kubeconfig(kubeconfig).context(null);
            }
            Operator built = builder.build();
            capture.operatorId(built.id());
            MDC.put(OperatorThreads.MDC_KEY, built.id());
            operator = built;
            built.start();
            if (!built.awaitListed(timeout)) {
                throw new IllegalStateException("the operator did not list its resources within " + timeout.toSeconds() + " s");
            }
            started.countDown();
            built.awaitTermination();
            exitCode = OK;
        } catch (CommandLine.ParameterException e) {
            exception = e;
            exitCode = USAGE;
        } catch (InterruptedException | RuntimeException | Error e) {
            exception = e;
            exitCode = FAILED;
        } finally {
            if (defaultKubeconfig != null) {
                defaultKubeconfig.close();
            }
            MDC.remove(OperatorThreads.MDC_KEY);
            started.countDown();
        }
    }
}
