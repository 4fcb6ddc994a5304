package io.kopf4j.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The operators the benchmark compares, each started as its own process: the floor (no framework,
 * {@link FloorOperator}), kopf4j as users run it (the CLI jar with {@code bench/BenchHandlers.java};
 * the JVM options from {@code KOPF4J_BENCH_JVM_OPTS}), and the same with
 * {@code settings.posting.loggers = false} ({@code bench/BenchHandlersQuiet.java}).
 *
 * <pre>{@code
 * List<OperatorKind> chosen = OperatorKind.parse("floor,kopf4j");
 * Process operator = new ProcessBuilder(OperatorKind.FLOOR.command(root, kubeconfig, "bench")).start();
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

    List<String> command(Path root, Path kubeconfig, String namespace) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (this == FLOOR) {
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), FloorOperator.class.getName(),
                    kubeconfig.toString(), namespace));
            return command;
        }
        Path jar = root.resolve("kopf4j-cli/target/kopf4j.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("build the CLI first: mvn -pl kopf4j-cli -am package -DskipTests");
        }
        String jvmOptions = System.getenv().getOrDefault("KOPF4J_BENCH_JVM_OPTS", "");
        if (!jvmOptions.isBlank()) {
            command.addAll(List.of(jvmOptions.trim().split("\\s+")));
        }
        command.addAll(List.of("-jar", jar.toString(), "run", "-n", namespace, "--kubeconfig", kubeconfig.toString(),
                root.resolve("bench/BenchHandlers.java").toString()));
        if (this == KOPF4J_QUIET) {
            command.add(root.resolve("bench/BenchHandlersQuiet.java").toString());
        }
        return command;
    }
}
