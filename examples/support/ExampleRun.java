import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.HandlerOutcomes;
import io.kopf4j.testing.KopfRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One run of an example as Kopf's E2E test ({@code tests/e2e/test_examples.py}) runs it: the
 * operator through {@code kopf4j run -v -n <namespace>}, Kopf's obj.yaml applied and deleted, its
 * output awaited for the example's stop words, and the handlers' outcomes counted in the output.
 * The operator runs under the RBAC that {@code kopf4j manifests} generates for it, with its
 * ServiceAccount's token ({@link GeneratedRbac}); closing the run asserts that it met no 403.
 *
 * <pre>{@code
 * try (ExampleRun run = ExampleRun.start(cluster, namespace, "05-handlers/HandlersExample.java")) {
 *     run.createObject();
 *     run.awaitOutput("Creation is processed");
 *     run.deleteObject();
 *     run.awaitOutput("Deleted, really deleted");
 *     run.assertEverySuccessOnceAndNoFailures();
 * }
 * }</pre>
 */
final class ExampleRun implements AutoCloseable {
    /** Kopf's E2E test gives its operator 60 seconds. */
    static final Duration WAIT = Duration.ofSeconds(60);
    /** The name of the object in obj.yaml. */
    static final String OBJECT = "kopf-example-1";

    private final LocalCluster cluster;
    private final String namespace;
    private final KopfRunner runner;
    private final Map<String, String> unusedRules = new java.util.LinkedHashMap<>();

    private ExampleRun(LocalCluster cluster, String namespace, KopfRunner runner) {
        this.cluster = cluster;
        this.namespace = namespace;
        this.runner = runner;
    }

    /**
     * Installs Kopf's CRD and runs the example's file (relative to examples/) in the namespace,
     * verbosely, as {@code kopf4j run} does, with more options of {@code kopf4j run} if given.
     */
    static ExampleRun start(LocalCluster cluster, TemporaryNamespace namespace, String example, String... options) {
        List<String> standalone = new ArrayList<>(List.of("--standalone"));
        standalone.addAll(List.of(options));
        return startWithPeering(cluster, namespace, example, standalone.toArray(String[]::new));
    }

    /**
     * As {@link #start}, with Kopf's peering as {@code kopf4j run} has it by default: the peering
     * object 'default' if it exists, else standalone. The other examples run {@code --standalone}, as
     * Kopf's E2E test runs them, so that their RBAC has no peering rules that a cluster without
     * Kopf's peering CRDs leaves unused (the tests share a cluster, which the peering example gives
     * them).
     */
    static ExampleRun startWithPeering(LocalCluster cluster, TemporaryNamespace namespace, String example, String... options) {
        cluster.apply(Path.of("crd.yaml"));
        List<String> runOptions = new ArrayList<>(List.of("-v", "-n", namespace.name()));
        runOptions.addAll(List.of(options));
        Path kubeconfig = GeneratedRbac.kubeconfig(cluster, namespace.name(), runOptions, example);
        List<String> args = new ArrayList<>(List.of("run"));
        args.addAll(runOptions);
        args.add(example);
        return new ExampleRun(cluster, namespace.name(), KopfRunner.start(kubeconfig, WAIT, args.toArray(String[]::new)));
    }

    /** Everything the operator has logged so far. */
    String output() {
        return runner.output();
    }

    /** The prefix of the log lines about the object of obj.yaml: {@code [namespace/kopf-example-1] }. */
    String prefix() {
        return "[" + namespace + "/" + OBJECT + "] ";
    }

    /** {@code kubectl apply -f obj.yaml} into the run's namespace. */
    void createObject() {
        try (InputStream yaml = Files.newInputStream(Path.of("obj.yaml"))) {
            cluster.client().genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace)
                    .load(yaml).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code kubectl delete -f obj.yaml}: returns once the object is gone (its finalizers released). */
    void deleteObject() {
        object().delete();
        await().atMost(WAIT).until(() -> object().get() == null);
    }

    /** Waits until the output matches any of the regular expressions (Kopf's stop words). */
    void awaitOutput(String... stopWords) {
        Pattern[] patterns = Arrays.stream(stopWords).map(Pattern::compile).toArray(Pattern[]::new);
        await("any of " + Arrays.toString(stopWords)).atMost(WAIT)
                .until(() -> Arrays.stream(patterns).anyMatch(pattern -> pattern.matcher(output()).find()));
    }

    /** How many times each handler or activity logged {@code '<id>' succeeded}. */
    Map<String, Integer> successCounts() {
        return runner.successCounts();
    }

    /** How many times each handler or activity failed for good (Kopf's E2E test's failure pattern). */
    Map<String, Integer> failureCounts() {
        return runner.failureCounts();
    }

    /**
     * Kopf's {@code E2E_SUCCESS_COUNTS}: the handlers named have succeeded exactly so many times (others,
     * such as the built-in login activity, are not counted).
     */
    void assertSuccessCounts(Map<String, Integer> expected) {
        assertSuccessCounts(output(), expected);
    }

    /** Kopf's {@code E2E_FAILURE_COUNTS}: these handlers, and no others, have failed for good so many times. */
    void assertFailureCounts(Map<String, Integer> expected) {
        assertThat(failureCounts()).as("failures").isEqualTo(expected);
    }

    /** Kopf's E2E default: once a handler succeeds it never runs again, and none fails for good. */
    void assertEverySuccessOnceAndNoFailures() {
        assertThat(successCounts()).isNotEmpty().allSatisfy((id, times) -> assertThat(times).as(id).isEqualTo(1));
        assertFailureCounts(Map.of());
    }

    /** Stops the operator gracefully; rethrows its failure, if any; asserts that it met no 403 under its generated RBAC. */
    @Override
    public void close() {
        runner.close();
        GeneratedRbac.assertNoForbidden(output());
        GeneratedRbac.assertCallsWithinRulesAndRulesUsed(cluster, namespace, unusedRules);
    }

    /**
     * Generated rules that this run does not use, each with why (see
     * {@link GeneratedRbac#assertCallsWithinRulesAndRulesUsed}): checked when the run closes.
     */
    ExampleRun leavesUnused(String grant, String reason) {
        unusedRules.put(grant, reason);
        return this;
    }


    /** As {@link #assertSuccessCounts(Map)}, in any operator's output. */
    static void assertSuccessCounts(String output, Map<String, Integer> expected) {
        Map<String, Integer> counted = HandlerOutcomes.successes(output);
        counted.keySet().retainAll(expected.keySet());
        assertThat(counted).as("successes").isEqualTo(expected);
    }

    private Resource<GenericKubernetesResource> object() {
        return cluster.client().genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace)
                .withName(OBJECT);
    }
}
