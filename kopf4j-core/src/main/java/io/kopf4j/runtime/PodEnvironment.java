package io.kopf4j.runtime;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * What the operator knows of where it runs, for the names its replicas go by in Leases (leader
 * election, sharding).
 *
 * <pre>{@code
 * String host = PodEnvironment.hostname();   // the pod's name in a cluster, e.g. "my-operator-7d9f-abcde"
 * }</pre>
 */
public final class PodEnvironment {
    private PodEnvironment() {
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
}
