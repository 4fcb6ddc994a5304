package io.kopf4j.engines.leadership;

import io.kopf4j.runtime.PodEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * Who campaigns, and where: a replica's identity in the Lease, and the Lease's namespace when none
 * is configured.
 *
 * <pre>{@code
 * String identity = Candidates.identity();                                  // "example-7d9f-abcde_0b6c...-..."
 * String namespace = Candidates.leaseNamespace(null, List.of("team-a"));    // "team-a" outside a cluster
 * }</pre>
 */
public final class Candidates {
    /** Where Kubernetes mounts the pod's namespace with its service account. */
    static final Path POD_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");
    private static final String NAMESPACE_NAME = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";

    private Candidates() {
    }

    /**
     * controller-runtime's identity: the host name (a pod's name in a cluster) and a random UUID, so
     * that a restarted pod with the same name is a new candidate, not the old holder.
     */
    public static String identity() {
        return PodEnvironment.hostname() + "_" + UUID.randomUUID();
    }

    /**
     * The Lease's namespace: the one configured; else the pod's own in a cluster (as
     * controller-runtime); else the one namespace served, if it is a plain name; else {@code default}.
     *
     * @param configured {@code settings.leadership.leaseNamespace}, or null
     * @param served the operator's namespace patterns ({@code -n}); empty for cluster-wide
     */
    public static String leaseNamespace(String configured, List<String> served) {
        return leaseNamespace(configured, served, POD_NAMESPACE);
    }

    static String leaseNamespace(String configured, List<String> served, Path podNamespace) {
        if (configured != null) {
            return configured;
        }
        try {
            String own = Files.readString(podNamespace).strip();
            if (!own.isEmpty()) {
                return own;
            }
        } catch (IOException notInAPod) {
            // outside a cluster: the served namespace, or the default
        }
        return served.size() == 1 && served.getFirst().matches(NAMESPACE_NAME) ? served.getFirst() : "default";
    }
}
