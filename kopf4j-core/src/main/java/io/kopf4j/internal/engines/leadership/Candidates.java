package io.kopf4j.internal.engines.leadership;

import io.kopf4j.internal.runtime.PodEnvironment;
import java.util.UUID;

/**
 * Who campaigns: a replica's identity in the Lease (its namespace: {@link PodEnvironment#leaseNamespace}).
 *
 * <pre>{@code
 * String identity = Candidates.identity();   // "example-7d9f-abcde_0b6c...-..."
 * }</pre>
 */
final class Candidates {
    private Candidates() {
    }

    /**
     * controller-runtime's identity: the host name (a pod's name in a cluster) and a random UUID, so
     * that a restarted pod with the same name is a new candidate, not the old holder.
     */
    public static String identity() {
        return PodEnvironment.hostname() + "_" + UUID.randomUUID();
    }
}
