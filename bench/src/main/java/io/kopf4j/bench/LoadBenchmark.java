package io.kopf4j.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The load benchmark: for each N, runs the chosen operators one after another, each on a fresh
 * LocalCluster (see {@link OperatorRun}), and prints a markdown table per N that compares them with
 * the floor operator (see {@code bench/README.md}).
 *
 * <p>Run with {@code bench/run.sh 200 1000}. {@code KOPF4J_BENCH_OPERATORS=floor,kopf4j,kopf4j-quiet,kopf,josdk}
 * chooses the operators (in this order; Kopf and JOSDK are skipped, with a line, where they cannot run:
 * {@link OperatorCommands}); {@code KOPF4J_BENCH_REPEATS=k} runs them k times, interleaved, and reports
 * the medians.
 */
public final class LoadBenchmark {
    private LoadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        List<Integer> sizes = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            sizes.add(Integer.parseInt(args[i]));
        }
        OperatorCommands commands = OperatorCommands.prepare(root,
                OperatorKind.parse(System.getenv().getOrDefault("KOPF4J_BENCH_OPERATORS", "floor,kopf4j,kopf4j-quiet")));
        List<OperatorKind> operators = commands.operators();
        int repeats = Integer.parseInt(System.getenv().getOrDefault("KOPF4J_BENCH_REPEATS", "1"));
        Path logs = Files.createTempDirectory("kopf4j-bench-");
        String conditions = Runtime.getRuntime().availableProcessors() + " CPUs; JDK " + Runtime.version() + "; kopf4j JVM options: "
                + System.getenv().getOrDefault("KOPF4J_BENCH_JVM_OPTS", "(none)") + "; AOT cache: "
                + (System.getenv().getOrDefault("KOPF4J_AOT", "").equals("off") ? "off" : "default")
                + (commands.versions().isEmpty() ? "" : "; " + commands.versions());
        System.out.println(conditions + "; operators' logs in " + logs);
        Kopf4jCommand.warmUpAll(root, operators);
        StringBuilder tables = new StringBuilder();
        for (int n : sizes) {
            Map<OperatorKind, List<RunResult>> runs = new LinkedHashMap<>();
            for (int repeat = 0; repeat < repeats; repeat++) {
                for (OperatorKind operator : operators) {
                    runs.computeIfAbsent(operator, kind -> new ArrayList<>()).add(OperatorRun.run(root, commands, operator, n, logs));
                }
            }
            List<RunResult> medians = runs.values().stream().map(RunResult::median).toList();
            String table = ResultTable.render(n, repeats, medians);
            System.out.println("figures written to " + ResultTable.file(n, repeats, medians, conditions).write(root));
            System.out.println();
            System.out.println(table);
            tables.append(table).append('\n');
        }
        if (sizes.size() > 1) {
            System.out.println();
            System.out.print(tables);
        }
    }
}
