package io.kopf4j.testing;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.TemporaryNamespace;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;

/**
 * What a {@link KopfTest} gives a test: the cluster, the test's namespace, the operator under test,
 * and helpers that act in that namespace and wait for as long as the annotation's timeout.
 *
 * <pre>{@code
 * @Test
 * void rejectsNothingAndStoresTheResult(KopfHarness kopf) {
 *     kopf.apply("""
 *             apiVersion: kopf.dev/v1
 *             kind: KopfExample
 *             metadata: {name: ex1}
 *             spec: {field: value}
 *             """);
 *     kopf.awaitLogged(kopf.about("ex1") + "Handler 'create' succeeded.");
 *     assertThat(kopf.successCounts()).containsEntry("create", 1);
 *     kopf.delete("kopf.dev/v1", "KopfExample", "ex1");   // returns once the finalizer is released
 * }
 * }</pre>
 */
public final class KopfHarness implements AutoCloseable {
    private final LocalCluster cluster;
    private final TemporaryNamespace namespace;
    private final List<String> runArgs;
    private final Duration timeout;
    private KopfRunner runner;

    KopfHarness(LocalCluster cluster, TemporaryNamespace namespace, List<String> runArgs, Duration timeout) {
        this.cluster = cluster;
        this.namespace = namespace;
        this.runArgs = List.copyOf(runArgs);
        this.timeout = timeout;
    }

    /** {@return the cluster shared by every test of the run} */
    public LocalCluster cluster() {
        return cluster;
    }

    /** {@return the cluster's admin client} */
    public KubernetesClient client() {
        return cluster.client();
    }

    /** {@return the namespace of this test class (or method), which the operator serves} */
    public String namespace() {
        return namespace.name();
    }

    /**
     * {@return the prefix of the operator's log lines about an object of the namespace: {@code [ns/name] }}
     *
     * @param name the object's name, e.g. {@code "kopf-example-1"}
     */
    public String about(String name) {
        return "[" + namespace.name() + "/" + name + "] ";
    }

    /**
     * Starts the operator under test, serving this namespace, and returns once it has listed the
     * existing objects. Done before the tests unless {@code @KopfTest(start = false)}.
     *
     * @param moreArgs options of {@code kopf4j run} added for this start only
     * @return the running operator
     * @throws IllegalStateException if it runs already
     */
    public synchronized KopfRunner start(String... moreArgs) {
        if (runner != null && runner.isRunning()) {
            throw new IllegalStateException("the operator under test runs already");
        }
        List<String> args = new ArrayList<>(List.of("run", "-n", namespace.name()));
        args.addAll(List.of(moreArgs));
        args.addAll(runArgs);
        runner = KopfRunner.start(cluster.kubeconfig(), timeout, args.toArray(String[]::new));
        return runner;
    }

    /** Stops the operator under test gracefully, and rethrows its failure, if any. Idempotent. */
    public synchronized void stop() {
        if (runner != null) {
            KopfRunner stopping = runner;
            runner = null;
            stopping.close();
        }
    }

    /**
     * {@return the operator under test}
     *
     * @throws IllegalStateException if it has not been started
     */
    public synchronized KopfRunner runner() {
        if (runner == null) {
            throw new IllegalStateException("the operator under test is not started: call start()");
        }
        return runner;
    }

    /** {@return every log line of the operator under test so far} */
    public String output() {
        return runner().output();
    }

    /**
     * Waits until the operator has logged a line containing {@code text}.
     *
     * @param text a log line or a part of one, e.g. {@code about("ex1") + "Handler 'create' succeeded."}
     */
    public void awaitLogged(String text) {
        Awaitility.await("the operator's log line: " + text).atMost(timeout).until(() -> output().contains(text));
    }

    /** {@return how many times each handler or activity has logged {@code '<id>' succeeded} (see {@link KopfRunner#successCounts()})} */
    public Map<String, Integer> successCounts() {
        return runner().successCounts();
    }

    /** {@return how many times each handler or activity has failed for good (see {@link KopfRunner#failureCounts()})} */
    public Map<String, Integer> failureCounts() {
        return runner().failureCounts();
    }

    /**
     * Creates or updates the objects of a YAML file in this namespace (server-side apply; objects
     * of cluster-scoped kinds stay cluster-wide).
     *
     * @param yaml the file
     * @return the objects as stored
     */
    public List<HasMetadata> apply(Path yaml) {
        try (InputStream in = Files.newInputStream(yaml)) {
            return apply(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + yaml, e);
        }
    }

    /**
     * As {@link #apply(Path)}, for YAML text.
     *
     * @param yaml one or more YAML documents
     * @return the objects as stored
     */
    public List<HasMetadata> apply(String yaml) {
        return apply(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
    }

    private List<HasMetadata> apply(InputStream yaml) {
        return client().load(yaml).items().stream()
                .map(item -> client().resource(item).inNamespace(namespace.name())
                        .fieldManager("kopf4j-test").forceConflicts().serverSideApply())
                .toList();
    }

    /**
     * {@return an object of this namespace, or null if there is none}
     *
     * @param apiVersion e.g. {@code kopf.dev/v1}
     * @param kind e.g. {@code KopfExample}
     * @param name the object's name
     */
    public GenericKubernetesResource get(String apiVersion, String kind, String name) {
        return client().genericKubernetesResources(apiVersion, kind).inNamespace(namespace.name()).withName(name).get();
    }

    /**
     * Waits until an object of this namespace exists and satisfies {@code condition}.
     *
     * @param apiVersion the object's API version, e.g. {@code "kopf.dev/v1"}
     * @param kind the object's kind, e.g. {@code "KopfExample"}
     * @param name the object's name, e.g. {@code "kopf-example-1"}
     * @param condition e.g. {@code obj -> obj.get("status", "create") != null}
     * @return the object as last read
     */
    public GenericKubernetesResource await(String apiVersion, String kind, String name,
                                           Predicate<GenericKubernetesResource> condition) {
        return Awaitility.await(kind + " " + name).atMost(timeout).until(() -> get(apiVersion, kind, name),
                object -> object != null && condition.test(object));
    }

    /**
     * Deletes an object of this namespace and returns once it is gone (its finalizers released).
     *
     * @param apiVersion the object's API version, e.g. {@code "kopf.dev/v1"}
     * @param kind the object's kind, e.g. {@code "KopfExample"}
     * @param name the object's name, e.g. {@code "kopf-example-1"}
     */
    public void delete(String apiVersion, String kind, String name) {
        client().genericKubernetesResources(apiVersion, kind).inNamespace(namespace.name()).withName(name).delete();
        Awaitility.await(kind + " " + name + " deleted").atMost(timeout).until(() -> get(apiVersion, kind, name) == null);
    }

    /** Stops the operator and deletes the namespace. */
    @Override
    public void close() {
        try {
            stop();
        } finally {
            namespace.close();
        }
    }
}
