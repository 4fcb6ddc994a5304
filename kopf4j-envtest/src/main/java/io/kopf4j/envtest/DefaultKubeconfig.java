package io.kopf4j.envtest;

import io.fabric8.kubernetes.client.Config;
import java.nio.file.Path;

/**
 * Makes a kubeconfig the default of this JVM while it is open: fabric8 reads its
 * {@code kubeconfig} system property before {@code KUBECONFIG} and {@code ~/.kube/config}, so a
 * handler's own {@code new KubernetesClientBuilder().build()} reaches the same cluster as the
 * operator, as under {@code kopf4j run --local-cluster} and {@code io.kopf4j.testing.KopfRunner}. Closing restores
 * the previous value. A JVM cannot change its own environment: child processes (kubectl, say)
 * get it as {@code KUBECONFIG} from {@link #environmentValue()}.
 *
 * <pre>{@code
 * try (DefaultKubeconfig ignored = DefaultKubeconfig.use(cluster.kubeconfig())) {
 *     KubernetesClient client = new KubernetesClientBuilder().build();   // reaches the local cluster
 * }
 * }</pre>
 */
public final class DefaultKubeconfig implements AutoCloseable {
    private final String previous;

    private DefaultKubeconfig(String previous) {
        this.previous = previous;
    }

    /**
     * Sets {@code kubeconfig} as this JVM's default kubeconfig until {@link #close()}.
     *
     * @param kubeconfig the kubeconfig file, e.g. {@code cluster.kubeconfig()}
     * @return the setting, whose {@link #close()} restores the previous default
     */
    public static DefaultKubeconfig use(Path kubeconfig) {
        String previous = System.getProperty(Config.KUBERNETES_KUBECONFIG_FILE);
        System.setProperty(Config.KUBERNETES_KUBECONFIG_FILE, kubeconfig.toAbsolutePath().toString());
        return new DefaultKubeconfig(previous);
    }

    /**
     * {@return the kubeconfig that a child process should get as {@code KUBECONFIG}: the default set
     * here, else this process's own {@code KUBECONFIG}; null if neither}
     *
     * <pre>{@code
     * ProcessBuilder kubectl = new ProcessBuilder("kubectl", "get", "pods");
     * kubectl.environment().put("KUBECONFIG", DefaultKubeconfig.environmentValue());
     * }</pre>
     */
    public static String environmentValue() {
        String property = System.getProperty(Config.KUBERNETES_KUBECONFIG_FILE);
        return property != null ? property : System.getenv("KUBECONFIG");
    }

    /** Restores the previous default: the earlier value of the property, or none. */
    @Override
    public void close() {
        if (previous == null) {
            System.clearProperty(Config.KUBERNETES_KUBECONFIG_FILE);
        } else {
            System.setProperty(Config.KUBERNETES_KUBECONFIG_FILE, previous);
        }
    }
}
