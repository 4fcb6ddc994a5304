package io.kopf4j.kits.webhooks;

import java.util.Set;

/**
 * Which host name a local cluster reaches this machine at (Kopf's {@code ClusterDetector}), from
 * the facts of its API server: k3d/k3s at {@code host.k3d.internal}, minikube at
 * {@code host.minikube.internal}, Docker Desktop at {@code host.docker.internal}; an API server
 * that runs on this machine (at 127.0.0.1, localhost or 0.0.0.0, and none of those) at {@code 127.0.0.1}.
 * Otherwise none: the server uses its listening address.
 *
 * <pre>{@code
 * ClusterDetector.guessHost(new ApiServerFacts("127.0.0.1", "k3s", "k3s", "k3s-server-ca@1", List.of(), "v1.30.4+k3s1"))
 * // "host.k3d.internal"
 * }</pre>
 */
final class ClusterDetector {
    /** The host through which k3d's and k3s's containers reach their host machine. */
    public static final String K3D_HOST = "host.k3d.internal";
    /** The host through which minikube's node reaches its host machine. */
    public static final String MINIKUBE_HOST = "host.minikube.internal";
    /** The host through which Docker Desktop's containers reach their host machine. */
    public static final String DOCKER_DESKTOP_HOST = "host.docker.internal";
    /** The host of an API server that runs as a process on this machine. */
    public static final String LOCAL_HOST = "127.0.0.1";

    private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "localhost", "::1", "[::1]", "0.0.0.0");

    private ClusterDetector() {
    }

    /**
     * Guesses the host; the certificate first (it tells the most with no permissions), then the
     * version, then whether the API server is on this machine. The order matters: k3d's and
     * minikube's API servers are also published at 127.0.0.1, yet run in containers.
     *
     * @param facts the API server's facts
     * @return the host name, or null when nothing is recognised
     */
    public static String guessHost(ApiServerFacts facts) {
        if ("k3s".equals(facts.subjectCn()) || "k3s".equals(facts.subjectOrg()) || facts.issuerCn().startsWith("k3s-")) {
            return K3D_HOST;
        }
        if ("minikube".equals(facts.subjectCn()) || "minikubeCA".equals(facts.issuerCn())) {
            return MINIKUBE_HOST;
        }
        if (facts.altNames().contains("docker-for-desktop")) {
            return DOCKER_DESKTOP_HOST;
        }
        if (facts.gitVersion().contains("+k3s")) {
            return K3D_HOST;
        }
        if (facts.host() != null && LOOPBACK.contains(facts.host())) {
            return LOCAL_HOST;
        }
        return null;
    }
}
