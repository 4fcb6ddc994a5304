package io.kopf4j.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.TemporaryNamespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntConsumer;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Creates N KopfExample objects concurrently, then patches all, then deletes all, against a
 * LocalCluster and a kopf4j operator running as its own process (bench/BenchHandlers.java), and
 * reports per phase: seconds until all are handled, objects/s, API requests per object by verb
 * (from the API server's apiserver_request_total), and the operator's peak RSS and CPU seconds.
 *
 * <p>Run with {@code bench/run.sh 200 1000}.
 */
public final class LoadBenchmark {
    private static final Pattern REQUESTS = Pattern.compile(
            "^apiserver_request_total\\{(.*)} ([0-9.e+]+)$", Pattern.MULTILINE);
    private static final Duration PHASE_TIMEOUT = Duration.ofMinutes(10);
    private static final int DRIVER_THREADS = 32;

    private LoadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        List<Integer> sizes = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            sizes.add(Integer.parseInt(args[i]));
        }
        StringBuilder table = new StringBuilder("| N | phase | seconds | objects/s | operator API requests per object | operator peak RSS (MiB) | operator CPU s (cumulative) |\n|---|---|---|---|---|---|---|\n");
        try (LocalCluster cluster = LocalCluster.start()) {
            cluster.apply(root.resolve("examples/crd.yaml"));
            System.out.println("Kubernetes " + cluster.serverVersion() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs");
            for (int n : sizes) {
                run(root, cluster, n, table);
            }
        }
        System.out.println();
        System.out.println(table);
    }

    private static void run(Path root, LocalCluster cluster, int n, StringBuilder table) throws Exception {
        KubernetesClient client = cluster.client();
        try (TemporaryNamespace namespace = new TemporaryNamespace(client, "bench" + n)) {
            Path log = Files.createTempFile("kopf4j-bench-operator-", ".log");
            Process operator = startOperator(root, cluster, namespace.name(), log);
            try {
                var examples = client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name());
                awaitLog(operator, log, "serves 3 handler(s)");
                phase(table, n, "create", cluster, operator, i -> examples.resource(new GenericKubernetesResourceBuilder()
                                .withApiVersion("kopf.dev/v1").withKind("KopfExample")
                                .withNewMetadata().withName("ex-" + i).endMetadata()
                                .addToAdditionalProperties("spec", Map.of("generation", 1)).build()).create(),
                        () -> examples.list().getItems(), all -> all.size() == n && all.stream().allMatch(o -> hasResult(o, 1)));
                phase(table, n, "patch", cluster, operator, i -> examples.withName("ex-" + i)
                                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"generation\":2}}"),
                        () -> examples.list().getItems(), all -> all.stream().allMatch(o -> hasResult(o, 2)));
                phase(table, n, "delete", cluster, operator, i -> examples.withName("ex-" + i).delete(),
                        () -> examples.list().getItems(), List::isEmpty);
            } finally {
                operator.destroy();
                operator.waitFor();
            }
        }
    }

    private interface Lister {
        List<GenericKubernetesResource> list();
    }

    private static void phase(StringBuilder table, int n, String name, LocalCluster cluster, Process operator,
                              IntConsumer action, Lister lister, Predicate<List<GenericKubernetesResource>> done)
            throws Exception {
        Map<String, Double> before = requests(cluster);
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newFixedThreadPool(DRIVER_THREADS)) {
            for (int i = 0; i < n; i++) {
                int index = i;
                pool.submit(() -> action.accept(index));
            }
        }
        long deadline = start + PHASE_TIMEOUT.toNanos();
        while (!done.test(lister.list())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " of " + n + " objects did not finish within " + PHASE_TIMEOUT);
            }
            Thread.sleep(500);   // the driver polls the outcome from outside; the operator itself never polls
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Double> after = requests(cluster);
        Map<String, Double> perObject = new TreeMap<>();
        after.forEach((verb, count) -> {
            double delta = count - before.getOrDefault(verb, 0.0) - driverRequests(name, verb, n);
            if (delta > 0.5) {
                perObject.put(verb, delta / n);
            }
        });
        String line = String.format(Locale.ROOT, "| %d | %s | %.1f | %.0f | %s | %.0f | %.1f |%n", n, name, seconds, n / seconds,
                format(perObject), peakRssMiB(operator), cpuSeconds(operator));
        System.out.print(line);
        table.append(line);
    }

    /** The benchmark's own requests in a phase, subtracted so that the operator's remain. */
    private static double driverRequests(String phase, String verb, int n) {
        return switch (phase + "/" + verb) {
            case "create/POST", "patch/PATCH", "delete/DELETE" -> n;
            default -> 0;
        };
    }

    private static String format(Map<String, Double> perObject) {
        StringBuilder text = new StringBuilder();
        perObject.forEach((verb, value) -> text.append(text.isEmpty() ? "" : ", ")
                .append(verb).append(' ').append(String.format(Locale.ROOT, "%.2f", value)));
        return text.toString();
    }

    /** apiserver_request_total for kopfexamples, summed by verb (LIST of the driver's polling excluded). */
    private static Map<String, Double> requests(LocalCluster cluster) {
        String metrics = cluster.client().raw("/metrics");
        Map<String, Double> byVerb = new TreeMap<>();
        Matcher matcher = REQUESTS.matcher(metrics);
        while (matcher.find()) {
            String labels = matcher.group(1);
            if (!labels.contains("resource=\"kopfexamples\"")) {
                continue;
            }
            Matcher verb = Pattern.compile("verb=\"([A-Z]+)\"").matcher(labels);
            if (verb.find() && !verb.group(1).equals("LIST") && !verb.group(1).equals("GET")) {
                byVerb.merge(verb.group(1), Double.parseDouble(matcher.group(2)), Double::sum);
            }
        }
        return byVerb;
    }

    /** The operator as users run it: the CLI jar, INFO logging (to a file), the handlers as a .java file. */
    private static Process startOperator(Path root, LocalCluster cluster, String namespace, Path log) throws IOException {
        Path jar = root.resolve("kopf4j-cli/target/kopf4j.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("build the CLI first: mvn -pl kopf4j-cli -am package -DskipTests");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String jvmOptions = System.getenv().getOrDefault("KOPF4J_BENCH_JVM_OPTS", "");
        if (!jvmOptions.isBlank()) {
            command.addAll(List.of(jvmOptions.trim().split("\\s+")));
        }
        command.addAll(List.of("-jar", jar.toString(), "run", "-n", namespace, "--kubeconfig", cluster.kubeconfig().toString(),
                root.resolve("bench/BenchHandlers.java").toString()));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static void awaitLog(Process operator, Path log, String fragment) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!Files.readString(log).contains(fragment)) {
            if (!operator.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("the operator did not start; its log: " + log);
            }
            Thread.sleep(100);
        }
    }

    private static boolean hasResult(GenericKubernetesResource object, int generation) {
        Object status = object.getAdditionalProperties().get("status");
        String key = generation == 1 ? "create" : "update";
        return status instanceof Map<?, ?> map && map.get(key) instanceof Map<?, ?> result
                && Integer.valueOf(generation).equals(result.get("generation"));
    }

    private static double peakRssMiB(Process process) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
            }
        }
        return Double.NaN;
    }

    private static double cpuSeconds(Process process) throws IOException {
        String stat = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;   // utime + stime, in ticks of 1/100 s
    }
}
