package io.kopf4j.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
}
