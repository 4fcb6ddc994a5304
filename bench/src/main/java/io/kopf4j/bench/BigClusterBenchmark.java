package io.kopf4j.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.envtest.LocalCluster;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * The big-cluster benchmark: N Pods in a namespace, of which only M carry the handlers' label, as
 * when an operator for a few Pods runs in a cluster full of others. One LocalCluster (no scheduler:
 * the Pods stay Pending) with the N background Pods created once; then each operator as its own
 * process, one after another: {@code kopf4j} ({@code bench/BenchBigCluster.java}, the handlers'
 * label filter applied in the operator), {@code kopf4j-selector} (the same with the API server's
 * label selector, {@code bench/BenchBigClusterSelector.java}) and {@code kopf} (Kopf, which has
 * none, {@code bench/peers/kopf_bigcluster.py}), each connected through a {@link ByteCountingProxy}.
 * Per run: a probe Pod with the label is created before the spawn; the operator is ready when it
 * has handled it (for kopf4j also {@code /readyz} 200), idle when its CPU is quiet; 5 s later its
 * RSS; then M labelled Pods are created on 32 client threads and timed until each carries Kopf's
 * record of its handling ({@link BenchPods#DIFF_BASE}), then deleted (a finalizer is involved) and
 * timed until gone. Figures: those seconds, RSS, peak RSS, CPU, the operator's requests by verb and
 * resource and the bytes it received. Prints a markdown table (medians with
 * {@code KOPF4J_BENCH_REPEATS}) and writes a result file.
 *
 * <pre>{@code
 * bench/run-big.sh 20000 200   # java io.kopf4j.bench.BigClusterBenchmark <checkout> 20000 200
 * }</pre>
 */
public final class BigClusterBenchmark {
    static final String NAMESPACE = "bench";
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration PHASE_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration READY_POLL = Duration.ofMillis(100);
    private static final Duration CPU_POLL = Duration.ofMillis(500);
    /** Quiet: at most this much CPU in each of {@link #QUIET_POLLS} polls in a row (10% of a core). */
    private static final double QUIET_CPU_SECONDS = 0.05;
    private static final int QUIET_POLLS = 4;
    private static final Duration IDLENESS = Duration.ofSeconds(5);
    /** After the operator's exit, until the API server has counted its watches (it counts a request when it ends). */
    private static final Duration WATCHES_END = Duration.ofSeconds(2);
    private static final double MIB = 1024.0 * 1024.0;
    /**
     * The API server's own requests, which its metrics count with the operator's: its bootstrap
     * controller GETs the system namespaces every minute, it checks the {@code kubernetes} Service
     * (and lists the Services to repair their IPs), it keeps its priority and fairness configuration,
     * its admission plugins LIST the namespace's LimitRanges and ResourceQuotas when the benchmark
     * creates Pods, and its informers watch RuntimeClasses among others (a WATCH counts when it ends).
     * kopf4j and Kopf request none of these.
     */
    private static final Set<String> API_SERVERS_OWN = Set.of("services", "flowschemas", "prioritylevelconfigurations",
            "limitranges", "resourcequotas", "runtimeclasses");
    private static final Predicate<String> OPERATORS = key -> !key.equals("GET namespaces")
            && !API_SERVERS_OWN.contains(key.substring(key.indexOf(' ') + 1).split("/")[0]);

    /** The operators compared. */
    enum Operator {
        KOPF4J("kopf4j", List.of("bench/BenchBigCluster.java")),
        KOPF4J_SELECTOR("kopf4j-selector", List.of("bench/BenchBigCluster.java", "bench/BenchBigClusterSelector.java")),
        KOPF("kopf", List.of());

        private final String label;
        private final List<String> handlerFiles;

        Operator(String label, List<String> handlerFiles) {
            this.label = label;
            this.handlerFiles = handlerFiles;
        }

        String label() {
            return label;
        }

        boolean isKopf4j() {
            return this != KOPF;
        }

        static List<Operator> parse(String labels) {
            List<Operator> chosen = new ArrayList<>();
            for (String label : labels.split(",")) {
                chosen.add(Arrays.stream(values()).filter(kind -> kind.label.equals(label.trim())).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("unknown operator '" + label + "'; known: kopf4j, kopf4j-selector, kopf")));
            }
            return chosen;
        }
    }

    private final Path root;
    private final int n;
    private final int m;
    private final Path logs;
    private final LocalCluster cluster;
    private final KubernetesClient client;
    private final BenchPods pods;
    private final OperatorRequests requests;
    private final ObjectTracker tracker;
    private final OperatorCommands peers;

    private BigClusterBenchmark(Path root, int n, int m, Path logs, LocalCluster cluster, KubernetesClient client,
                                DriverRequests driver, ObjectTracker tracker, OperatorCommands peers) {
        this.root = root;
        this.n = n;
        this.m = m;
        this.logs = logs;
        this.cluster = cluster;
        this.client = client;
        this.pods = new BenchPods(client, NAMESPACE);
        this.requests = new OperatorRequests(client, driver, OPERATORS);
        this.tracker = tracker;
        this.peers = peers;
    }

    public static void main(String[] args) throws Exception {
        Path root = Kopf4jScenario.root(args);
        int n = Kopf4jScenario.n(args, 20_000);
        int m = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        int repeats = Integer.parseInt(System.getenv().getOrDefault("KOPF4J_BENCH_REPEATS", "1"));
        List<Operator> operators = new ArrayList<>(Operator.parse(
                System.getenv().getOrDefault("KOPF4J_BENCH_OPERATORS", "kopf4j,kopf4j-selector,kopf")));
        Path logs = Files.createTempDirectory("kopf4j-bench-big-");
        OperatorCommands peers = OperatorCommands.prepare(root, operators.contains(Operator.KOPF) ? List.of(OperatorKind.KOPF) : List.of());
        if (!peers.operators().contains(OperatorKind.KOPF)) {
            operators.remove(Operator.KOPF);
        }
        for (Operator operator : operators) {
            if (operator.isKopf4j()) {
                System.out.printf(Locale.ROOT, "[%s] two starts after the build, on a throw-away cluster, to fill the class and AOT caches: %.1f s%n",
                        operator.label(), Kopf4jCommand.warmUp(root, operator.handlerFiles));
            }
        }
        try (LocalCluster cluster = LocalCluster.builder().controllers(false).start()) {
            DriverRequests driver = new DriverRequests();
            try (KubernetesClient client = driver.client(cluster.kubeconfig())) {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build()).create();
                String conditions = Runtime.getRuntime().availableProcessors() + " CPUs; Kubernetes " + cluster.serverVersion()
                        + "; JDK " + Runtime.version() + "; kopf4j JVM options: "
                        + System.getenv().getOrDefault("KOPF4J_BENCH_JVM_OPTS", "(none)") + "; AOT cache: "
                        + (System.getenv().getOrDefault("KOPF4J_AOT", "").equals("off") ? "off" : "default")
                        + (peers.versions().isEmpty() ? "" : "; " + peers.versions()) + "; M = " + m
                        + (repeats > 1 ? "; median of " + repeats + " runs" : "");
                System.out.println(conditions + "; operators' logs in " + logs);
                long start = System.nanoTime();
                BenchPods background = new BenchPods(client, NAMESPACE);
                DriverPool.forEach(n, "create", background::createBackground);
                System.out.printf(Locale.ROOT, "%d background Pods created in %.1f s%n", n, seconds(System.nanoTime() - start));
                try (ObjectTracker tracker = new ObjectTracker(background.handled())) {
                    BigClusterBenchmark benchmark = new BigClusterBenchmark(root, n, m, logs, cluster, client, driver, tracker, peers);
                    Map<Operator, List<BigClusterRun>> runs = new LinkedHashMap<>();
                    for (int repeat = 1; repeat <= repeats; repeat++) {
                        for (Operator operator : List.copyOf(operators)) {
                            BigClusterRun run = benchmark.run(operator, repeat);
                            if (run != null) {
                                runs.computeIfAbsent(operator, kind -> new ArrayList<>()).add(run);
                            } else {
                                operators.remove(operator);   // it would fail again: the next repeats go without it
                            }
                        }
                    }
                    List<BigClusterRun> medians = runs.values().stream().map(BigClusterRun::median).toList();
                    ResultFile file = new ResultFile("bigcluster", n, conditions);
                    medians.forEach(run -> file.row(run.figures()));
                    System.out.println("figures written to " + file.write(root));
                    System.out.println();
                    System.out.println(BigClusterRun.table(n, m, repeats, medians));
                }
            }
        }
    }

    /** One operator's run; null (and a line saying why) if it failed. */
    private BigClusterRun run(Operator operator, int repeat) throws IOException, InterruptedException {
        String prefix = operator.label() + "-" + repeat;
        Path log = logs.resolve(prefix + ".log");
        try {
            return measure(operator, prefix, log);
        } catch (TimeoutException | IllegalStateException e) {
            String output = Files.exists(log) ? Files.readString(log).strip() : "";
            String last = output.isEmpty() ? "(no output)" : output.substring(output.lastIndexOf('\n') + 1);
            System.out.println("[" + prefix + "] failed, left out: " + e.getMessage() + "; its last line: " + last + "; its output: " + log);
            pods.removeAll(prefix + "-");   // not to be handled by the next operator
            return null;
        }
    }

    private BigClusterRun measure(Operator operator, String prefix, Path log)
            throws IOException, InterruptedException, TimeoutException {
        String probe = prefix + "-probe";
        List<String> names = IntStream.range(0, m).mapToObj(i -> prefix + "-" + i).toList();
        OperatorEndpoint readiness = OperatorEndpoint.onFreePort("/readyz");
        try (ByteCountingProxy proxy = ByteCountingProxy.start(URI.create(cluster.serverUrl()))) {
            Path kubeconfig = proxy.kubeconfig(cluster.kubeconfig(), cluster.serverUrl());
            pods.createHandled(probe);
            ApiRequests before = requests.now();
            ApiRequests answersBefore = answerBytes();
            OperatorProcess process = OperatorProcess.start(command(operator, kubeconfig, readiness), log);
            double ready;
            double readyz = Double.NaN;
            double idle;
            double idleRss;
            double create;
            double delete;
            double cpu;
            double peakRss;
            try {
                long spawned = process.spawnedNanos();
                ready = seconds(process.await(tracker, "the probe Pod handled", STARTUP_TIMEOUT,
                        objects -> BenchPods.handled(objects.get(probe))) - spawned);
                if (operator.isKopf4j()) {
                    readyz = seconds(process.awaitAtLeast("/readyz 200", 1, STARTUP_TIMEOUT, READY_POLL,
                            () -> readiness.isReady() ? 1 : 0) - spawned);
                }
                idle = seconds(awaitQuiet(process) - spawned);
                Thread.sleep(IDLENESS);
                idleRss = ProcessStats.memoryMiB(process.pid(), "VmRSS");
                print(prefix, format("ready (the probe Pod handled) %.1f s after the spawn%s; CPU quiet %.1f s after it; RSS %.0f MiB"
                        + " 5 s later; received %.1f MiB so far; requests so far: %s", ready,
                        Double.isNaN(readyz) ? "" : format(", /readyz 200 %.1f s", readyz), idle, idleRss, proxy.received() / MIB,
                        requests.now().minus(before).format("%.0f")));

                long creating = System.nanoTime();
                DriverPool.forEach(m, "create", i -> pods.createHandled(names.get(i)));
                long handled = process.await(tracker, "the create handlers of " + m + " Pods", PHASE_TIMEOUT,
                        objects -> names.stream().allMatch(name -> BenchPods.handled(objects.get(name))));
                create = seconds(handled - creating);
                requests.settle(handled);

                List<String> deleted = new ArrayList<>(names);
                deleted.add(probe);
                long deleting = System.nanoTime();
                DriverPool.forEach(deleted.size(), "delete", i -> pods.delete(deleted.get(i)));
                long gone = process.await(tracker, "the deletion of " + deleted.size() + " Pods", PHASE_TIMEOUT,
                        objects -> deleted.stream().noneMatch(objects::containsKey));
                delete = seconds(gone - deleting);
                requests.settle(gone);
                cpu = ProcessStats.cpuSeconds(process.pid());
                peakRss = ProcessStats.memoryMiB(process.pid(), "VmHWM");
            } finally {
                process.close();
            }
            Thread.sleep(WATCHES_END);
            BigClusterRun run = new BigClusterRun(operator.label(), ready, readyz, idle, idleRss, create, delete, cpu, peakRss,
                    requests.now().minus(before), m + 1, proxy.received() / MIB, proxy.sent() / MIB,
                    answerBytes().minus(answersBefore).dividedBy(MIB));
            print(prefix, run.line());
            return run;
        }
    }

    private ProcessBuilder command(Operator operator, Path kubeconfig, OperatorEndpoint readiness) {
        if (operator == Operator.KOPF) {
            return peers.kopf("bench/peers/kopf_bigcluster.py", kubeconfig, NAMESPACE);
        }
        return Kopf4jCommand.process(root, kubeconfig, NAMESPACE,
                List.of("--standalone", "--health-probe-bind-address=" + readiness.hostAndPort()), operator.handlerFiles);
    }

    /** The bytes of the API server's answers to GET and LIST so far, by verb and resource (all clients'). */
    private ApiRequests answerBytes() {
        return ApiRequests.fromMetrics(client.raw("/metrics"), "apiserver_response_sizes_sum", resource -> !resource.isEmpty())
                .only(OPERATORS);
    }

    /**
     * Polls the operator's CPU time until it used at most {@link #QUIET_CPU_SECONDS} in each of
     * {@link #QUIET_POLLS} polls in a row; {@return when that quiet began, in System.nanoTime()}
     */
    private static long awaitQuiet(OperatorProcess process) throws IOException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        double previous = ProcessStats.cpuSeconds(process.pid());
        long quietSince = System.nanoTime();
        int quietPolls = 0;
        while (quietPolls < QUIET_POLLS) {
            Thread.sleep(CPU_POLL);
            process.requireAlive("its CPU got quiet");
            double now = ProcessStats.cpuSeconds(process.pid());
            if (now - previous <= QUIET_CPU_SECONDS) {
                quietPolls++;
            } else {
                quietPolls = 0;
                quietSince = System.nanoTime();
            }
            previous = now;
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("the operator's CPU was not quiet within " + STARTUP_TIMEOUT);
            }
        }
        return quietSince;
    }

    private void print(String prefix, String line) {
        System.out.println("[" + prefix + " N=" + n + " M=" + m + "] " + line);
    }

    static double seconds(long nanos) {
        return nanos / 1e9;
    }

    static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
