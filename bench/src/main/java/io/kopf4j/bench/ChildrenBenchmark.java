package io.kopf4j.bench;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * The children benchmark: kopf4j with a {@code @Children} handler of a ConfigMap, a Deployment and
 * a Service per KopfExample ({@code bench/BenchChildren.java}, {@code readyCondition = "Ready"}) on a
 * fresh LocalCluster without controllers. It creates N parents on 32 client threads and measures:
 * the time until all 3 (N + 1) children are applied (kopf4j's {@code kopf4j_children_writes_total}),
 * then, the benchmark playing the Deployments' controller and pods (a status PATCH each, as their
 * controller would write once the pods are ready), the time until every parent's {@code Ready}
 * condition is True (its own watch); the operator's API writes per parent by verb and resource, and
 * those over 30 s at rest (the goal: none); the RSS per cached child; the repair of 100 hand edits
 * of a ConfigMap, one at a time, from the edit to the first read (every 10 ms) that shows it put
 * back (p50, p99; the goal: p99 at most 2 s). The reference, in the same run and on the same
 * cluster: the benchmark applying the same 3 N children itself (server-side apply, 32 threads), the
 * least any operator could take; kopf4j's apply time is shown as a multiple of it.
 *
 * <pre>{@code
 * bench/run-children.sh 1000   # java io.kopf4j.bench.ChildrenBenchmark <checkout> 1000
 * }</pre>
 */
public final class ChildrenBenchmark {
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration PHASE_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration METRICS_POLL = Duration.ofMillis(100);
    private static final Duration AT_REST = Duration.ofSeconds(30);
    private static final Duration REPAIR_POLL = Duration.ofMillis(10);
    private static final Duration REPAIR_TIMEOUT = Duration.ofSeconds(30);
    private static final int EDITS = 100;
    private static final int CHILDREN = 3;
    private static final String FLOOR_NAMESPACE = "floor";
    private static final List<String> HANDLERS = List.of("bench/BenchChildren.java");

    private final int n;
    private final Kopf4jScenario scenario;
    private final OperatorProcess operator;
    private final OperatorEndpoint metrics;
    private final KubernetesClient client;
    private final Map<String, Object> figures = new LinkedHashMap<>();

    private ChildrenBenchmark(Kopf4jScenario scenario, OperatorEndpoint metrics) {
        this.n = scenario.n();
        this.scenario = scenario;
        this.operator = scenario.operator();
        this.metrics = metrics;
        this.client = scenario.cluster().client();
    }

    public static void main(String[] args) throws Exception {
        OperatorEndpoint metrics = OperatorEndpoint.onFreePort("/metrics");
        try (Kopf4jScenario scenario = Kopf4jScenario.start("children", Kopf4jScenario.root(args), Kopf4jScenario.n(args, 1000),
                List.of("--metrics-bind-address=" + metrics.hostAndPort()), HANDLERS)) {
            ChildrenBenchmark benchmark = new ChildrenBenchmark(scenario, metrics);
            GoalTable table = benchmark.measure();
            scenario.print("figures written to " + new ResultFile("children", scenario.n(), scenario.conditions())
                    .row(benchmark.figures).write(Kopf4jScenario.root(args)));
            System.out.println();
            System.out.println(table.render());
        }
    }

    private GoalTable measure() throws Exception {
        long startup = operator.awaitAtLeast("ex-startup's children applied", CHILDREN, STARTUP_TIMEOUT, METRICS_POLL,
                this::applies);
        scenario.print(format("start-up: %.1f s to ex-startup's children", seconds(startup - operator.spawnedNanos())));
        Thread.sleep(Duration.ofSeconds(5));
        double rssStarted = ProcessStats.memoryMiB(operator.pid(), "VmRSS");

        OperatorRequests requests = scenario.cluster().requests();
        ApiRequests beforeCreate = requests.now();
        long start = System.nanoTime();
        DriverPool.forEach(n, "create", scenario.cluster().examples()::create);
        long applied = operator.awaitAtLeast("all children applied", CHILDREN * (n + 1.0), PHASE_TIMEOUT, METRICS_POLL,
                this::applies);
        double applySeconds = seconds(applied - start);
        scenario.print(format("apply: %d parents' children applied %.1f s after the first creation", n, applySeconds));

        long playing = System.nanoTime();
        DriverPool.forEach(n + 1, "Deployment status", index -> readyDeployment(parentName(index)));
        long ready = operator.await(scenario.cluster().tracker(), "every parent Ready", PHASE_TIMEOUT,
                objects -> objects.size() == n + 1 && objects.values().stream().allMatch(ChildrenBenchmark::isReady));
        double readySeconds = seconds(ready - playing);
        scenario.print(format("ready: every parent's Ready condition True %.1f s after the Deployments' statuses began"
                + " (%.1f s after the first creation)", readySeconds, seconds(ready - start)));
        double settle = requests.settle(ready);
        ApiRequests perParent = requests.now().minus(beforeCreate).dividedBy(n);
        scenario.print(format("writes per parent (settled %.1f s after): %s", settle, perParent.format()));

        ApiRequests beforeRest = requests.now();
        double appliesBeforeRest = applies();
        Thread.sleep(AT_REST);
        ApiRequests atRest = requests.now().minus(beforeRest);
        double restWrites = atRest.writes().total();
        double restApplies = applies() - appliesBeforeRest;
        double rss = ProcessStats.memoryMiB(operator.pid(), "VmRSS");
        double kibPerChild = (rss - rssStarted) * 1024 / (CHILDREN * (double) n);
        double peak = ProcessStats.memoryMiB(operator.pid(), "VmHWM");
        scenario.print(format("at rest for %d s: %s requests, %.0f applies; RSS %.0f MiB (%.1f KiB per child since the"
                + " start-up's %.0f MiB), peak %.0f MiB", AT_REST.toSeconds(), atRest.format(), restApplies, rss, kibPerChild,
                rssStarted, peak));

        Percentiles repairs = Percentiles.of(repairs());
        scenario.print(format("drift repair over %d edits: p50 %.0f ms, p99 %.0f ms, max %.0f ms", EDITS,
                repairs.at(0.50) * 1000, repairs.at(0.99) * 1000, repairs.max() * 1000));

        double floorSeconds = floor();
        scenario.print(format("reference: the benchmark applied the same %d children itself in %.1f s", CHILDREN * (n + 1),
                floorSeconds));

        figures.put("operator", "kopf4j");
        figures.put("apply_s", applySeconds);
        figures.put("floor_apply_s", floorSeconds);
        figures.put("ready_s", readySeconds);
        figures.put("writes_per_parent", perParent.counts());
        figures.put("writes_at_rest", restWrites);
        figures.put("rss_mib", rss);
        figures.put("peak_rss_mib", peak);
        figures.put("kib_per_child", kibPerChild);
        figures.put("repair_p50_ms", repairs.at(0.50) * 1000);
        figures.put("repair_p99_ms", repairs.at(0.99) * 1000);
        return new GoalTable("N = " + n + " parents with " + CHILDREN + " children each (bench/BenchChildren.java)", "goal")
                .figure("children applied s (× the benchmark's own applies)",
                        format("%.1f (×%.2f)", applySeconds, applySeconds / floorSeconds), "")
                .figure("every parent Ready s, after the Deployments' statuses", format("%.1f", readySeconds), "")
                .figure("writes per parent", perParent.format(), "3 applies + Kopf's state")
                .atMost("writes in " + AT_REST.toSeconds() + " s at rest", "%.0f", restWrites, 0)
                .figure("operator RSS MiB (peak)", format("%.0f (%.0f)", rss, peak), "")
                .figure("RSS KiB per cached child", format("%.1f", kibPerChild), "")
                .figure("drift repair p50 ms", format("%.0f", repairs.at(0.50) * 1000), "")
                .atMost("drift repair p99 ms", "%.0f", repairs.at(0.99) * 1000, 2000);
    }

    /** The Deployment's status as its controller writes it once its pod is ready. */
    private void readyDeployment(String parent) {
        client.apps().deployments().inNamespace(BenchCluster.NAMESPACE).withName(parent + "-web").subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), """
                        {"status": {"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1, "readyReplicas": 1,
                         "availableReplicas": 1}}""");
    }

    /** Each edit of a ConfigMap by hand, in seconds until a read shows it put back. */
    private double[] repairs() throws InterruptedException, TimeoutException {
        double[] seconds = new double[EDITS];
        for (int i = 0; i < EDITS; i++) {
            var config = client.configMaps().inNamespace(BenchCluster.NAMESPACE).withName(parentName(i % n) + "-config");
            long edited = System.nanoTime();
            config.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\": {\"k\": \"edited\"}}");
            while (true) {
                ConfigMap now = config.get();
                if ("v".equals(now.getData().get("k"))) {
                    seconds[i] = seconds(System.nanoTime() - edited);
                    break;
                }
                if (System.nanoTime() - edited > REPAIR_TIMEOUT.toNanos()) {
                    throw new TimeoutException("edit #" + i + " of " + config.get().getMetadata().getName() + " not repaired");
                }
                Thread.sleep(REPAIR_POLL);
            }
        }
        return seconds;
    }

    /**
     * The reference: the benchmark applies the same children itself (those kopf4j applied, read back and
     * stripped of what the server set), in another namespace, 32 at a time.
     */
    private double floor() throws InterruptedException {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(FLOOR_NAMESPACE).endMetadata().build())
                .create();
        String label = "kopf4j.dev/managed-by=kopf4j";
        List<HasMetadata> children = new ArrayList<>();
        children.addAll(client.configMaps().inNamespace(BenchCluster.NAMESPACE).withLabelSelector(label).list().getItems());
        children.addAll(client.apps().deployments().inNamespace(BenchCluster.NAMESPACE).withLabelSelector(label).list().getItems());
        children.addAll(client.services().inNamespace(BenchCluster.NAMESPACE).withLabelSelector(label).list().getItems());
        for (HasMetadata child : children) {
            child.setMetadata(new ObjectMetaBuilder().withName(child.getMetadata().getName()).withNamespace(FLOOR_NAMESPACE)
                    .withLabels(child.getMetadata().getLabels()).build());
            if (child instanceof Deployment deployment) {
                deployment.setStatus(null);
            } else if (child instanceof Service service) {
                service.setStatus(null);   // headless: no cluster IP to give back (the local cluster's range is small)
            }
        }
        long start = System.nanoTime();
        DriverPool.forEach(children.size(), "floor apply",
                index -> client.resource(children.get(index)).fieldManager("bench").forceConflicts().serverSideApply());
        return seconds(System.nanoTime() - start);
    }

    /** ex-startup for the last index, as the parents are N created and the start-up one. */
    private String parentName(int index) {
        return index == n ? Examples.STARTUP : Examples.name(index);
    }

    @SuppressWarnings("unchecked")
    private static boolean isReady(GenericKubernetesResource parent) {
        Object status = parent.getAdditionalProperties().get("status");
        Object conditions = status instanceof Map<?, ?> map ? map.get("conditions") : null;
        return conditions instanceof List<?> list && list.stream().anyMatch(item -> item instanceof Map<?, ?> condition
                && "Ready".equals(condition.get("type")) && "True".equals(condition.get("status")));
    }

    /** The operator's applies so far; none while its metrics endpoint is not up yet (the start-up). */
    private double applies() throws IOException, InterruptedException {
        try {
            return PrometheusText.sum(metrics.get(), "kopf4j_children_writes_total", Map.of("write", "apply"));
        } catch (ConnectException e) {
            return 0;
        }
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
