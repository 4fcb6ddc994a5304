package io.kopf4j.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The operators the benchmark compares, each started as its own process: the floor (no framework,
 * {@link FloorOperator}), kopf4j as users run it (the {@code kopf4j} launcher with
 * {@code bench/BenchHandlers.java}; extra JVM options from {@code KOPF4J_BENCH_JVM_OPTS}), the same with
 * {@code settings.posting.loggers = false} ({@code bench/BenchHandlersQuiet.java}), and two other
 * frameworks with the same workload, if they can run here ({@link OperatorCommands}): Kopf
 * ({@code bench/peers/kopf_handlers.py}) and the Java Operator SDK ({@code bench/peers/josdk}).
 *
 * <pre>{@code
 * List<OperatorKind> chosen = OperatorKind.parse("floor,kopf4j");
 * Process operator = OperatorKind.FLOOR.process(root, kubeconfig, "bench").start();
 * }</pre>
 */
enum OperatorKind {
    FLOOR("floor"),
    KOPF4J("kopf4j"),
    KOPF4J_QUIET("kopf4j-quiet"),
    KOPF("kopf"),
    JOSDK("josdk");

    private final String label;

    OperatorKind(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /** A comma-separated list of labels, e.g. {@code floor,kopf4j,kopf4j-quiet}. */
    static List<OperatorKind> parse(String labels) {
        List<OperatorKind> kinds = new ArrayList<>();
        for (String label : labels.split(",")) {
            kinds.add(Arrays.stream(values()).filter(kind -> kind.label.equals(label.trim())).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown operator '" + label + "'; known: "
                            + Arrays.stream(values()).map(OperatorKind::label).collect(Collectors.joining(", ")))));
        }
        return kinds;
    }

    /** Whether it is another framework than kopf4j, run only where it can be ({@link OperatorCommands}). */
    boolean isPeer() {
        return this == KOPF || this == JOSDK;
    }

    /**
     * The command line of the floor or a kopf4j operator (the peers': {@link OperatorCommands#process}).
     * kopf4j runs as users run it ({@link Kopf4jCommand}); the floor runs with the same JVM options, so
     * that neither spends the shared cores on a JIT compiler the other does without.
     */
    ProcessBuilder process(Path root, Path kubeconfig, String namespace) throws IOException, InterruptedException {
        if (isPeer()) {
            throw new IllegalStateException(label + " is started through OperatorCommands");
        }
        if (this == FLOOR) {
            return java(root, System.getProperty("java.class.path"), FloorOperator.class.getName(), kubeconfig.toString(), namespace);
        }
        return Kopf4jCommand.process(root, kubeconfig, namespace, List.of(), handlerFiles());
    }

    /** kopf4j's handler files, relative to the checkout; none for the other operators. */
    List<String> handlerFiles() {
        return switch (this) {
            case FLOOR, KOPF, JOSDK -> List.of();
            case KOPF4J -> List.of("bench/BenchHandlers.java");
            case KOPF4J_QUIET -> List.of("bench/BenchHandlers.java", "bench/BenchHandlersQuiet.java");
        };
    }

    /** A JVM with the launcher's options ({@link #launcherJvmOptions}) running the class's {@code main}. */
    static ProcessBuilder java(Path root, String classpath, String mainClass, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(launcherJvmOptions(root));
        command.addAll(List.of("-cp", classpath, mainClass));
        command.addAll(List.of(arguments));
        return new ProcessBuilder(command);
    }

    /** What {@code scripts/jvm-options.sh} says for this Java (one option a line), without the user's additions. */
    private static List<String> launcherJvmOptions(Path root) throws IOException, InterruptedException {
        ProcessBuilder script = new ProcessBuilder(root.resolve("scripts/jvm-options.sh").toString(), System.getProperty("java.home"));
        script.environment().remove("KOPF4J_JAVA_OPTS");
        Process process = script.redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes()).strip();
        if (process.waitFor() != 0) {
            throw new IllegalStateException("scripts/jvm-options.sh failed: " + output);
        }
        return output.lines().toList();
    }
}
