package io.kopf4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The frame of a kopf4j-only scenario (daemons, timers): a fresh cluster ({@link BenchCluster}) with
 * the object {@code ex-startup} in it, and kopf4j spawned through the launcher with the scenario's
 * options and handler files, its output to a temporary log file; closing stops the operator, then
 * the cluster. {@code ex-startup} exists before the spawn so that the scenario can tell when the
 * operator has started (it lists it and handles it first).
 *
 * <pre>{@code
 * try (Kopf4jScenario scenario = Kopf4jScenario.start("timers", root, 1000, options, List.of("bench/BenchTimers.java"))) {
 *     scenario.print("...");
 *     double cpu = ProcessStats.cpuSeconds(scenario.operator().pid());
 * }
 * }</pre>
 */
final class Kopf4jScenario implements AutoCloseable {
    private final String name;
    private final int n;
    private final BenchCluster cluster;
    private final OperatorProcess operator;
    private final Path log;
    private final String conditions;

    private Kopf4jScenario(String name, int n, BenchCluster cluster, OperatorProcess operator, Path log, String conditions) {
        this.name = name;
        this.conditions = conditions;
        this.n = n;
        this.cluster = cluster;
        this.operator = operator;
        this.log = log;
    }

    /** The checkout's root: a scenario's first argument. */
    static Path root(String[] args) {
        return Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
    }

    /** N: a scenario's second argument. */
    static int n(String[] args, int defaultN) {
        return args.length > 1 ? Integer.parseInt(args[1]) : defaultN;
    }

    /** @param handlerFiles relative to the root, e.g. {@code bench/BenchDaemons.java} */
    static Kopf4jScenario start(String name, Path root, int n, List<String> options, List<String> handlerFiles)
            throws IOException, InterruptedException {
        return start(name, root, n, options, handlerFiles, cluster -> { });
    }

    /** What a scenario puts into the cluster before the operator is spawned. */
    @FunctionalInterface
    interface Preparation {
        void prepare(BenchCluster cluster) throws IOException, InterruptedException;
    }

    /** As {@link #start(String, Path, int, List, List)}, with objects put in place before the spawn. */
    static Kopf4jScenario start(String name, Path root, int n, List<String> options, List<String> handlerFiles,
                                Preparation beforeSpawn) throws IOException, InterruptedException {
        Path log = Files.createTempFile("kopf4j-bench-" + name + "-" + n + "-", ".log");
        BenchCluster cluster = BenchCluster.start(root);
        try {
            cluster.examples().create(Examples.STARTUP);
            beforeSpawn.prepare(cluster);
            // Everything that may fail comes before the spawn: nothing but close() may leave the operator behind.
            String header = Runtime.getRuntime().availableProcessors() + " CPUs; Kubernetes " + cluster.serverVersion()
                    + "; JDK " + Runtime.version() + "; kopf4j JVM options: " + System.getenv().getOrDefault("KOPF4J_BENCH_JVM_OPTS", "(none)")
                    + "; AOT cache: " + (System.getenv().getOrDefault("KOPF4J_AOT", "").equals("off") ? "off" : "default")
                    + "; the operator: " + String.join(" ", options) + " " + String.join(" ", handlerFiles)
                    + "; its output: " + log;
            Kopf4jScenario scenario = new Kopf4jScenario(name, n, cluster, OperatorProcess.start(
                    Kopf4jCommand.process(root, cluster.kubeconfig(), BenchCluster.NAMESPACE, options, handlerFiles), log), log, header);
            scenario.print(header);
            return scenario;
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    int n() {
        return n;
    }

    BenchCluster cluster() {
        return cluster;
    }

    /** The machine, cluster, JDK and options it ran with: the header it printed first. */
    String conditions() {
        return conditions;
    }

    OperatorProcess operator() {
        return operator;
    }

    /** The operator's output so far. */
    String output() throws IOException {
        return Files.readString(log);
    }

    /** The operator's warnings and errors so far: its log's lines of those levels (Kopf's full format). */
    long warnings() throws IOException {
        try (Stream<String> lines = Files.lines(log)) {
            return lines.filter(line -> line.contains(" [WARN    ] ") || line.contains(" [ERROR   ] ")).count();
        }
    }

    /** A line of progress, e.g. {@code [daemons N=10000] idle: RSS 180 MiB ...}. */
    void print(String line) {
        System.out.println("[" + name + " N=" + n + "] " + line);
    }

    @Override
    public void close() {
        try {
            operator.close();
        } finally {
            cluster.close();
        }
    }
}
