package io.kopf4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * kopf4j's command line as users run it: the {@code kopf4j} launcher of the checkout (with its JVM
 * options, and {@code KOPF4J_BENCH_JVM_OPTS} passed on as {@code KOPF4J_JAVA_OPTS}, so they win),
 * {@code run} in one namespace with the cluster's kubeconfig, then the options and the handler files
 * (compiled by the launcher).
 *
 * <pre>{@code
 * ProcessBuilder operator = Kopf4jCommand.process(root, kubeconfig, "bench",
 *         List.of("--metrics-bind-address=127.0.0.1:8080"), List.of("bench/BenchDaemons.java"));
 * }</pre>
 */
final class Kopf4jCommand {
    private static final Duration FIRST_START_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration READY_POLL = Duration.ofMillis(100);

    private Kopf4jCommand() {
    }

    /** @param handlerFiles relative to the checkout's root, e.g. {@code bench/BenchHandlers.java} */
    static ProcessBuilder process(Path root, Path kubeconfig, String namespace, List<String> options, List<String> handlerFiles) {
        List<String> command = new ArrayList<>(List.of(root.resolve("kopf4j").toString(), "run", "-n", namespace,
                "--kubeconfig", kubeconfig.toString()));
        command.addAll(options);
        handlerFiles.forEach(file -> command.add(root.resolve(file).toString()));
        ProcessBuilder process = new ProcessBuilder(command);
        process.environment().put("KOPF4J_JAVA_OPTS", System.getenv().getOrDefault("KOPF4J_BENCH_JVM_OPTS", ""));
        return process;
    }

    /**
     * Compiles the handler files into kopf4j's class cache, so that the measured start-up is that of a
     * {@code .java} file compiled before (each build of the benchmark rebuilds kopf4j's jars, which
     * changes the cache's key): a {@code run} against a kubeconfig that does not exist loads the
     * handlers, fails to log in and exits. On JDK 25+ that run also records the classes it loaded, up
     * to the login, and {@link #nextStart} makes the AOT cache of them, so that the measured start does
     * not. {@return how long that took, in seconds: a first-time compile, or a cache hit if nothing
     * changed}
     */
    static double warmUp(Path root, List<String> handlerFiles) throws IOException, InterruptedException {
        ProcessBuilder process = process(root, root.resolve("target/no-such-kubeconfig"), "default", List.of(), handlerFiles)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        long started = System.nanoTime();
        process.start().waitFor();
        double seconds = (System.nanoTime() - started) / 1e9;
        nextStart(root);
        return seconds;
    }

    /**
     * {@code kopf4j --version}: a start after a first run, which makes the AOT cache of what that
     * recorded (JDK 25+, {@code scripts/aot-options.sh}). {@return how long it took, in seconds}
     */
    private static double nextStart(Path root) throws IOException, InterruptedException {
        long started = System.nanoTime();
        new ProcessBuilder(root.resolve("kopf4j").toString(), "--version").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        return (System.nanoTime() - started) / 1e9;
    }

    /**
     * A user's first start against the cluster, so that the one measured next is a second start: kopf4j
     * runs the handler files in a namespace without objects until {@code /readyz} answers, and is stopped
     * with SIGTERM. The class cache then holds the compiled handlers, and on JDK 25+ the JVM has recorded
     * the classes a run loads, of which {@code kopf4j --version} (any next start) makes the AOT cache
     * ({@code scripts/aot-options.sh}; {@code KOPF4J_AOT=off}: not).
     */
    static FirstStart firstStart(Path root, Path kubeconfig, List<String> handlerFiles) throws IOException, InterruptedException {
        OperatorEndpoint readiness = OperatorEndpoint.onFreePort("/readyz");
        ProcessBuilder command = process(root, kubeconfig, "kopf4j-bench-first-start",
                List.of("--health-probe-bind-address=" + readiness.hostAndPort()), handlerFiles);
        Path log = Files.createTempFile("kopf4j-bench-first-start-", ".log");
        OperatorProcess operator = OperatorProcess.start(command, log);
        long ready;
        try {
            ready = operator.awaitAtLeast("/readyz 200 (a first start; its output: " + log + ")", 1, FIRST_START_TIMEOUT,
                    READY_POLL, () -> readiness.isReady() ? 1 : 0);
        } catch (TimeoutException e) {
            throw new IOException("a first start of kopf4j did not get ready; its output: " + log, e);
        } finally {
            operator.close();
        }
        long stopped = System.nanoTime();
        return new FirstStart((ready - operator.spawnedNanos()) / 1e9, (stopped - ready) / 1e9, nextStart(root));
    }

    /**
     * How long a first start took (see {@link #firstStart}), in seconds: from the spawn to ready, from
     * ready to its exit after SIGTERM (when the JVM writes what it recorded), and the next start of
     * {@code kopf4j --version} (that makes the AOT cache).
     */
    record FirstStart(double ready, double exit, double nextVersion) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "a first start (the class and AOT caches filled): ready %.1f s after the spawn,"
                    + " exited %.1f s after SIGTERM; then kopf4j --version %.1f s", ready, exit, nextVersion);
        }
    }

    /** Warms the cache for each of these operators (see {@link #warmUp(Path, List)}) and prints how long each took. */
    static void warmUpAll(Path root, List<OperatorKind> operators) throws IOException, InterruptedException {
        for (OperatorKind operator : operators) {
            if (!operator.handlerFiles().isEmpty()) {
                System.out.printf(Locale.ROOT, "[%s] a first start after the build, to fill the class cache (compiles the handlers unless cached): %.1f s%n",
                        operator.label(), warmUp(root, operator.handlerFiles()));
            }
        }
    }
}
