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
        return process(root, List.of("--kubeconfig", kubeconfig.toString()), namespace, options, handlerFiles);
    }

    /** @param cluster the options that name the cluster, e.g. {@code --kubeconfig FILE} or {@code --local-cluster} */
    private static ProcessBuilder process(Path root, List<String> cluster, String namespace, List<String> options,
                                          List<String> handlerFiles) {
        List<String> command = new ArrayList<>(List.of(root.resolve("kopf4j").toString(), "run", "-n", namespace));
        command.addAll(cluster);
        command.addAll(options);
        handlerFiles.forEach(file -> command.add(root.resolve(file).toString()));
        ProcessBuilder process = new ProcessBuilder(command);
        process.environment().put("KOPF4J_JAVA_OPTS", System.getenv().getOrDefault("KOPF4J_BENCH_JVM_OPTS", ""));
        return process;
    }

    /**
     * A user's first start, before any measured one: on a throw-away local cluster of kopf4j's own
     * ({@code run --local-cluster --no-controllers --crd examples/crd.yaml}), until {@code /readyz}
     * answers, then stopped with SIGTERM; then {@code kopf4j --version} (see {@link #firstStart}).
     * The class cache then holds the compiled handlers (each build of the benchmark rebuilds kopf4j's
     * jars, which changes the cache's key), and on JDK 25+ the AOT cache is made of a run that served,
     * as a user's second start has it: the launcher makes none of a run that failed before serving.
     * {@return how long it took, in seconds, from the spawn to the exit of {@code kopf4j --version}}
     */
    static double warmUp(Path root, List<String> handlerFiles) throws IOException, InterruptedException {
        long started = System.nanoTime();
        firstStart(root, List.of("--local-cluster", "--no-controllers", "--crd", root.resolve("examples/crd.yaml").toString()),
                "kopf4j-bench-warm-up", handlerFiles);
        return (System.nanoTime() - started) / 1e9;
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
        return firstStart(root, List.of("--kubeconfig", kubeconfig.toString()), "kopf4j-bench-first-start", handlerFiles);
    }

    private static FirstStart firstStart(Path root, List<String> cluster, String namespace, List<String> handlerFiles)
            throws IOException, InterruptedException {
        OperatorEndpoint readiness = OperatorEndpoint.onFreePort("/readyz");
        ProcessBuilder command = process(root, cluster, namespace,
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
                System.out.printf(Locale.ROOT, "[%s] a first start after the build, on a throw-away local cluster, to fill the class and AOT caches: %.1f s%n",
                        operator.label(), warmUp(root, operator.handlerFiles()));
            }
        }
    }
}
