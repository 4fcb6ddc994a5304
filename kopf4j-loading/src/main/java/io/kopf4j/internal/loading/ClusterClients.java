package io.kopf4j.internal.loading;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kopf4j.OperatorException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A client for the commands that talk to a cluster without running an operator ({@code kopf4j
 * manifests --kubeconfig}, {@code check-rbac}, {@code webhook-configuration}): the cluster of
 * {@code --kubeconfig} and {@code --context}, else {@code $KUBECONFIG}, {@code ~/.kube/config} or
 * the pod's service account, as fabric8 finds them.
 *
 * <pre>{@code
 * try (KubernetesClient client = ClusterClients.of(Path.of("kubeconfig"), null)) { ... }
 * }</pre>
 */
public final class ClusterClients {
    private ClusterClients() {
    }

    /**
     * A client of the cluster that a kubeconfig's context names.
     *
     * @param kubeconfig the kubeconfig file, or null for fabric8's usual places
     * @param context the context, or null for the current one
     * @return a new client, which the caller closes
     * @throws OperatorException if the kubeconfig file is missing or unreadable
     */
    public static KubernetesClient of(Path kubeconfig, String context) {
        Config config;
        if (kubeconfig == null) {
            config = Config.autoConfigure(context);
        } else if (!Files.isRegularFile(kubeconfig)) {
            throw new OperatorException("kubeconfig file not found: " + kubeconfig);
        } else {
            try {
                config = Config.fromKubeconfig(context, Files.readString(kubeconfig), kubeconfig.toString());
            } catch (IOException e) {
                throw new OperatorException("cannot read the kubeconfig " + kubeconfig + ": " + e.getMessage(), e);
            }
        }
        return new KubernetesClientBuilder().withConfig(config).build();
    }
}
