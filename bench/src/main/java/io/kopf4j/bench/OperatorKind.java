package io.kopf4j.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The operators the benchmark compares, each started as its own process: the floor (no framework,
 * {@link FloorOperator}), kopf4j as users run it (the {@code kopf4j} launcher with
 * {@code bench/BenchHandlers.java}; extra JVM options from {@code KOPF4J_BENCH_JVM_OPTS}), and the same with
 * {@code settings.posting.loggers = false} ({@code bench/BenchHandlersQuiet.java}).
 *
 * <pre>{@code
 * List<OperatorKind> chosen = OperatorKind.parse("floor,kopf4j");
 * Process operator = OperatorKind.FLOOR.process(root, kubeconfig, "bench").start();
 * }</pre>
 */
enum OperatorKind {
    FLOOR("floor"),
    KOPF4J("kopf4j"),
    KOPF4J_QUIET("kopf4j-quiet");

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
                    .orElseThrow(() -> new IllegalArgumentException("unknown operator '" + label + "'; known: floor, kopf4j, kopf4j-quiet")));
        }
        return kinds;
    }

    /**
     * The operator's command line. kopf4j runs as users run it ({@link Kopf4jCommand}); the floor
     * runs with the same JVM options, so that neither spends the shared cores on a JIT compiler the
     * other does without.
     */
    ProcessBuilder process(Path root, Path kubeconfig, String namespace) throws IOException, InterruptedException {
        if (this == FLOOR) {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(launcherJvmOptions(root));
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), FloorOperator.class.getName(),
                    kubeconfig.toString(), namespace));
            return new ProcessBuilder(command);
        }
        return Kopf4jCommand.process(root, kubeconfig, namespace, List.of(), handlerFiles());
    }

    /** kopf4j's handler files, relative to the checkout; none for the floor. */
    List<String> handlerFiles() {
        return switch (this) {
            case FLOOR -> List.of();
            case KOPF4J -> List.of("bench/BenchHandlers.java");
            case KOPF4J_QUIET -> List.of("bench/BenchHandlers.java", "bench/BenchHandlersQuiet.java");
        };
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
