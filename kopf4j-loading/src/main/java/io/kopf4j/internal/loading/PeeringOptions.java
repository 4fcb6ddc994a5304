package io.kopf4j.internal.loading;

import io.kopf4j.Memo;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.engines.activities.Login;
import io.kopf4j.internal.engines.peering.Peer;
import io.kopf4j.internal.engines.peering.PeerIdentity;
import io.kopf4j.internal.engines.peering.PeeringEngine;
import io.kopf4j.internal.logging.LogSetup;
import io.kopf4j.internal.runtime.OperatorThreads;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options that Kopf's {@code freeze} and {@code resume} share, and their one action: writing a
 * manual peer's record into the peering objects (or removing it). A record of a higher priority
 * pauses the operators of that peering until it expires or is removed.
 *
 * <pre>{@code
 * kopf4j freeze -P default -n default --lifetime 600 --priority 100
 * kopf4j resume -P default -n default
 * }</pre>
 */
public final class PeeringOptions {
    @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE",
            description = "Touch the KopfPeering of this namespace (repeatable). Default: the ClusterKopfPeering.")
    List<String> namespaces = new ArrayList<>();

    @Option(names = {"-A", "--all-namespaces"}, description = "Touch the ClusterKopfPeering (the default without -n).")
    boolean allNamespaces;

    @Option(names = {"-i", "--id"}, paramLabel = "ID",
            description = "The manual peer's identity. Default: user@host (the same for freeze and resume).")
    String id;

    @Option(names = {"-P", "--peering"}, paramLabel = "NAME", required = true, description = "The peering object's name.")
    String peering;

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "The kubeconfig file. Default: $KUBECONFIG or ~/.kube/config.")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "The kubeconfig context. Default: the current one.")
    String context;

    @Option(names = {"-v", "--verbose"}, description = "Log kopf4j's debug messages too.")
    boolean verbose;

    /** Options at their defaults, for picocli to set from the command line. */
    public PeeringOptions() {
    }

    /**
     * Writes the manual peer's record with this priority and lifetime (0 removes it), as Kopf's
     * {@code touch_command}.
     *
     * @param priority the record's priority, e.g. {@code 100}; operators of a lower priority pause
     * @param lifetime how long the record lasts, e.g. {@code Duration.ofMinutes(10)}; zero removes it
     * @throws InterruptedException if the thread is interrupted while the record is written
     * @throws OperatorException on conflicting options, or if the cluster has no peering CRD of that scope
     */
    public void touch(int priority, Duration lifetime) throws InterruptedException {
        if (allNamespaces && !namespaces.isEmpty()) {
            throw new OperatorException("-A/--all-namespaces and -n/--namespace exclude each other");
        }
        LogSetup.configure(LogSetup.Format.FULL, null, "object", verbose, false);
        OperatorSettings settings = new OperatorSettings();
        settings.peering.name = peering;
        String identity = id != null ? id : PeerIdentity.detect(true, System.getenv());
        OperatorThreads threads = new OperatorThreads("kopf4j-peering");
        try (Login login = Login.run(List.of(), kubeconfig, context, settings, new Memo(), threads, lost -> { })) {
            PeeringEngine.touch(login.client(), settings, namespaces, new Peer(identity, priority, lifetime, Instant.now()));
        }
    }
}
