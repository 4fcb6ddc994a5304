package io.kopf4j.internal.runtime;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What the operator knows of where it runs, for the names its replicas go by in Leases and the
 * namespace of those Leases (leader election, sharding).
 *
 * <pre>{@code
 * String host = PodEnvironment.hostname();   // the pod's name in a cluster, e.g. "my-operator-7d9f-abcde"
 * String namespace = PodEnvironment.leaseNamespace(null, List.of("team-a"));   // "team-a" outside a cluster
 * }</pre>
 */
public final class PodEnvironment {
    /** Where Kubernetes mounts the pod's namespace with its service account. */
    static final Path SERVICE_ACCOUNT_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");
    private static final String NAMESPACE_NAME = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";

    private PodEnvironment() {
    }

    /**
     * {@return whether this process runs in a Kubernetes pod: the variable every pod gets
     * ({@code $KUBERNETES_SERVICE_HOST}) and the service account's mount, as client-go's in-cluster
     * configuration requires both}
     */
    public static boolean inPod() {
        String apiServer = System.getenv("KUBERNETES_SERVICE_HOST");
        return apiServer != null && !apiServer.isBlank() && Files.isRegularFile(SERVICE_ACCOUNT_NAMESPACE);
    }

    /** {@return the host name: {@code $HOSTNAME} (a container's, the pod's name) first, with no DNS lookup; else the JDK's} */
    public static String hostname() {
        String fromEnvironment = System.getenv("HOSTNAME");
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment.strip();
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /**
     * The namespace of a Lease that the operator's replicas share (leader election's, the shards'),
     * when none is configured: the pod's own ({@code $POD_NAMESPACE} from the downward API, else the
     * service account's mount, as controller-runtime), else the one namespace served if it is a
     * plain name ({@code -n team-a}), else {@code default}.
     *
     * @param configured the namespace set by an option or a setting, or null
     * @param served the operator's namespace patterns ({@code -n}); empty for cluster-wide
     * @return the configured namespace if any, else the first of those above that applies, e.g. {@code "operators"}
     */
    public static String leaseNamespace(String configured, List<String> served) {
        return leaseNamespace(configured, served, System.getenv(), SERVICE_ACCOUNT_NAMESPACE);
    }

    static String leaseNamespace(String configured, List<String> served, Map<String, String> environment,
                                 Path serviceAccountNamespace) {
        if (configured != null) {
            return configured;
        }
        String fromEnvironment = environment.get("POD_NAMESPACE");
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment.strip();
        }
        try {
            String own = Files.readString(serviceAccountNamespace).strip();
            if (!own.isEmpty()) {
                return own;
            }
        } catch (IOException notInAPod) {
            // outside a cluster: the served namespace, or the default
        }
        return served.size() == 1 && served.getFirst().matches(NAMESPACE_NAME) ? served.getFirst() : "default";
    }
}
