package io.kopf4j.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorException;
import io.kopf4j.envtest.KeptCluster;
import io.kopf4j.internal.loading.ClusterClients;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The cluster a command works on, as picocli options shared by the commands that act on objects:
 * a kept local cluster by name, or a kubeconfig and its context.
 *
 * <pre>{@code
 * @Mixin ClusterOptions cluster;
 * try (KubernetesClient client = cluster.client()) { ... }
 * }</pre>
 */
final class ClusterOptions {
    @Option(names = "--local-cluster", paramLabel = "NAME",
            description = "On the local cluster NAME of `kopf4j cluster start NAME`.")
    String localCluster;

    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "The cluster's kubeconfig. Default: $KUBECONFIG, ~/.kube/config.")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "The kubeconfig context. Default: the current one.")
    String context;

    /** {@return a client of the chosen cluster, to close} */
    KubernetesClient client() {
        if (localCluster == null) {
            return ClusterClients.of(kubeconfig, context);
        }
        if (kubeconfig != null || context != null) {
            throw new OperatorException("--local-cluster names the cluster; give no --kubeconfig or --context with it");
        }
        return KeptCluster.running(localCluster).client();
    }
}
