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
     * A user's first two starts, before any measured one, made as the measured ones are: on a throw-away
     * {@link BenchCluster}, {@code run -n bench --kubeconfig FILE} with the handler files, each until it
     * has handled an object of its own, then stopped with SIGTERM; then {@code kopf4j --version}. The
     * first compiles the handlers into the class cache (each build of the benchmark rebuilds kopf4j's
     * jars, which changes the cache's key); on JDK 25+ the second, which reads them from there as every
     * measured start does, records the classes it loads, and {@code kopf4j --version} makes the AOT cache
     * of them ({@code scripts/aot-options.sh}), as a user's third start has it. Not with
     * {@code --local-cluster}, as until 2026-11-30, nor of the compiling start: the cache then also held
     * the local cluster's classes and the JDK's compiler (75 MB instead of 58), which every measured
     * start loaded for nothing (22 MiB more RSS at rest).
     * {@return how long it took, in seconds, from the cluster's start to the exit of {@code kopf4j --version}}
     */
    static double warmUp(Path root, List<String> handlerFiles) throws Exception {
        long started = System.nanoTime();
        try (BenchCluster cluster = BenchCluster.start(root)) {
            for (String object : List.of(Examples.STARTUP, Examples.name(0))) {
                cluster.examples().create(object);
                Path log = Files.createTempFile("kopf4j-bench-warm-up-", ".log");
                try (OperatorProcess operator = OperatorProcess.start(
                        process(root, cluster.kubeconfig(), BenchCluster.NAMESPACE, List.of(), handlerFiles), log)) {
                    operator.await(cluster.tracker(), object + " (a start before the measured ones; its output: " + log + ")",
                            FIRST_START_TIMEOUT, objects -> Examples.hasResult(objects.get(object), "create", 1));
                }
            }
        }
        nextStart(root);
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
     * A user's first two starts against the cluster, so that the one measured next is a third start:
     * kopf4j runs the handler files in a namespace without objects until {@code /readyz} answers, and is
     * stopped with SIGTERM, twice. The first compiles the handlers into the class cache; on JDK 25+ the
     * second, which reads them from there, records the classes a run loads, of which {@code kopf4j
     * --version} (any next start) makes the AOT cache ({@code scripts/aot-options.sh}; a compiling run is
     * not recorded; {@code KOPF4J_AOT=off}: none). The figures are those of the first start.
     */
    static FirstStart firstStart(Path root, Path kubeconfig, List<String> handlerFiles) throws IOException, InterruptedException {
        double[] first = untilReady(root, kubeconfig, handlerFiles);   // compiles the handlers
        untilReady(root, kubeconfig, handlerFiles);                    // records the classes of a usual start
        return new FirstStart(first[0], first[1], nextStart(root));
    }

    /** One start until {@code /readyz} answers, then SIGTERM. {@return the seconds from the spawn to ready, and from ready to the exit} */
    private static double[] untilReady(Path root, Path kubeconfig, List<String> handlerFiles)
            throws IOException, InterruptedException {
        OperatorEndpoint readiness = OperatorEndpoint.onFreePort("/readyz");
        ProcessBuilder command = process(root, kubeconfig, "kopf4j-bench-first-start",
                List.of("--health-probe-bind-address=" + readiness.hostAndPort()), handlerFiles);
        Path log = Files.createTempFile("kopf4j-bench-first-start-", ".log");
        OperatorProcess operator = OperatorProcess.start(command, log);
        long ready;
        try {
            ready = operator.awaitAtLeast("/readyz 200 (a start before the measured one; its output: " + log + ")", 1,
                    FIRST_START_TIMEOUT, READY_POLL, () -> readiness.isReady() ? 1 : 0);
        } catch (TimeoutException e) {
            throw new IOException("a start of kopf4j before the measured one did not get ready; its output: " + log, e);
        } finally {
            operator.close();
        }
        return new double[] {(ready - operator.spawnedNanos()) / 1e9, (System.nanoTime() - ready) / 1e9};
    }

    /**
     * How long a first start took (see {@link #firstStart}), in seconds: from the spawn to ready, from
     * ready to its exit after SIGTERM, and the start of {@code kopf4j --version} after the second start
     * (that makes the AOT cache).
     */
    record FirstStart(double ready, double exit, double nextVersion) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "a first start (the class cache filled; a second one recorded for the AOT cache):"
                    + " ready %.1f s after the spawn, exited %.1f s after SIGTERM; then kopf4j --version %.1f s", ready, exit,
                    nextVersion);
        }
    }

    /** Warms the cache for each of these operators (see {@link #warmUp(Path, List)}) and prints how long each took. */
    static void warmUpAll(Path root, List<OperatorKind> operators) throws Exception {
        for (OperatorKind operator : operators) {
            if (!operator.handlerFiles().isEmpty()) {
                System.out.printf(Locale.ROOT, "[%s] two starts after the build, on a throw-away cluster, to fill the class and AOT caches: %.1f s%n",
                        operator.label(), warmUp(root, operator.handlerFiles()));
            }
        }
    }
}
