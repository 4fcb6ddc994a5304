package io.kopf4j.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.envtest.LocalCluster;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A fresh cluster as every benchmark run uses it, so that no run inherits another's objects,
 * watches or request counts: a LocalCluster (kube-apiserver + etcd) with {@code examples/crd.yaml}
 * applied, the namespace {@code bench}, the benchmark's own client (its requests counted, see
 * {@link DriverRequests}), its watch on the objects ({@link ObjectTracker}) and the operator's
 * requests ({@link OperatorRequests}).
 *
 * <pre>{@code
 * try (BenchCluster cluster = BenchCluster.start(root)) {
 *     cluster.examples().create(Examples.STARTUP);
 *     ProcessBuilder operator = Kopf4jCommand.process(root, cluster.kubeconfig(), BenchCluster.NAMESPACE, options, handlers);
 *     ApiRequests sofar = cluster.requests().now();
 * }
 * }</pre>
 */
final class BenchCluster implements AutoCloseable {
    static final String NAMESPACE = "bench";

    // Not final: they are set one after another, and close() closes those that were, if a later one fails.
    private LocalCluster cluster;
    private KubernetesClient client;
    private Examples examples;
    private ObjectTracker tracker;
    private OperatorRequests requests;

    private BenchCluster() {
    }

    static BenchCluster start(Path root) throws IOException {
        BenchCluster started = new BenchCluster();
        try {
            // A control plane alone, as the results before kube-controller-manager ran were measured on: the
            // controllers have nothing to do with KopfExamples, but their informers would share the 2 cores.
            started.cluster = LocalCluster.builder().controllers(false).start();
            started.cluster.apply(root.resolve("examples/crd.yaml"));
            DriverRequests driver = new DriverRequests();
            started.client = driver.client(started.cluster.kubeconfig());
            started.client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
                    .create();
            started.examples = new Examples(started.client, NAMESPACE);
            started.tracker = new ObjectTracker(started.examples.collection());
            started.requests = new OperatorRequests(started.client, driver);
            return started;
        } catch (IOException | RuntimeException e) {
            started.close();
            throw e;
        }
    }

    Path kubeconfig() {
        return cluster.kubeconfig();
    }

    String serverVersion() {
        return cluster.serverVersion();
    }

    /** The benchmark's own client (not the operator's). */
    KubernetesClient client() {
        return client;
    }

    Examples examples() {
        return examples;
    }

    ObjectTracker tracker() {
        return tracker;
    }

    OperatorRequests requests() {
        return requests;
    }

    @Override
    public void close() {
        try {
            if (tracker != null) {
                tracker.close();
            }
        } finally {
            try {
                if (client != null) {
                    client.close();
                }
            } finally {
                if (cluster != null) {
                    cluster.close();
                }
            }
        }
    }
}
