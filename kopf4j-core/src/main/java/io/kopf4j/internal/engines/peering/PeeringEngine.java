package io.kopf4j.internal.engines.peering;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.clients.ApiErrors;
import io.kopf4j.internal.clients.ApiRequest;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.clients.Discovery;
import io.kopf4j.internal.intents.NamespacePatterns;
import io.kopf4j.internal.reactor.orchestration.Orchestrator;
import io.kopf4j.internal.runtime.Engine;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kopf's peering for one operator: finds the peering resources ({@code kopf.dev/v1}, and the
 * legacy {@code zalando.org/v1} too if served), keeps this operator's record in the peering object
 * of each served namespace (or in the {@code ClusterKopfPeering} of a cluster-wide operator), and
 * pauses the handling ({@link Orchestrator#pause}, as {@value #PAUSER}) while any of them has
 * peers of a higher or the same priority, or while a mandatory peering has no peering resource.
 *
 * <pre>{@code
 * PeeringEngine peering = PeeringEngine.start(client, settings, List.of("default"),
 *         reactor.orchestrator(), threads, metrics);   // returns once the present peers are evaluated
 * reactor.start();
 * ...
 * peering.stopTakingWork();   // the watchers and the keep-alive stop
 * peering.release(true);      // once the handlers in flight are done: the others may take over
 * }</pre>
 */
public final class PeeringEngine implements Engine {
    private static final Logger LOG = LoggerFactory.getLogger(PeeringEngine.class);
    /** Who pauses the orchestrator: the leadership and sharding engines pause it under their own names. */
    public static final String PAUSER = "peering";
    /** The groups of Kopf's peering CRDs: the current one and the legacy one (both are served if present). */
    private static final Set<String> GROUPS = Set.of("kopf.dev", "zalando.org");

    private final Orchestrator orchestrator;
    private final List<Neighbourhood> neighbourhoods = new ArrayList<>();
    private final boolean missing;

    private PeeringEngine(Orchestrator orchestrator, boolean missing) {
        this.orchestrator = orchestrator;
        this.missing = missing;
    }

    /**
     * Starts peering as the settings say (nothing at all when standalone), and returns once the
     * peers present are evaluated: an operator that must pause is paused before it watches anything.
     *
     * @param namespaces the operator's namespace patterns; empty for a cluster-wide operator
     */
    public static PeeringEngine start(KubernetesClient client, OperatorSettings settings, List<String> namespaces,
                                      Orchestrator orchestrator, OperatorThreads threads, Metrics metrics)
            throws InterruptedException {
        if (settings.peering.standalone) {
            return new PeeringEngine(orchestrator, false);
        }
        ApiRetries retries = startupRetries(settings);
        List<PeeringObject> objects = objects(client, settings, namespaces).stream()
                .filter(object -> canList(object, retries)).toList();
        PeeringEngine engine = new PeeringEngine(orchestrator, settings.peering.mandatory && objects.isEmpty());
        if (engine.missing) {
            LOG.warn("The peering is mandatory, but the peering CRDs are not found in the cluster (or may not be listed):"
                    + " the operator is paused. Apply Kopf's peering.yaml and restart, or run with --standalone.");
        } else if (objects.isEmpty()) {
            LOG.debug("No peering resources are found; the operator runs standalone.");
        }
        String identity = PeerIdentity.detect(false, System.getenv());
        for (PeeringObject object : objects) {
            engine.neighbourhoods.add(new Neighbourhood(object, identity, settings, threads, metrics,
                    conflicted -> engine.adjust()));
        }
        engine.adjust();
        engine.neighbourhoods.forEach(Neighbourhood::start);
        Duration timeout = settings.networking.requestTimeout;
        for (Neighbourhood neighbourhood : engine.neighbourhoods) {
            if (!neighbourhood.awaitEvaluated(timeout)) {
                LOG.warn("The peers were not evaluated within {} s; the operator goes on as they allow so far.",
                        timeout.toSeconds());
            }
        }
        return engine;
    }

    /**
     * Kopf's {@code touch_command} (for {@code kopf4j freeze} and {@code resume}): writes the
     * peer's record (or removes it, with a dead one) in the peering object of each namespace, or the
     * cluster-wide one.
     *
     * @throws OperatorException if the cluster serves no peering resource of that scope
     */
    public static void touch(KubernetesClient client, OperatorSettings settings, List<String> namespaces, Peer peer) {
        List<PeeringObject> objects = objects(client, settings, namespaces);
        if (objects.isEmpty()) {
            throw new OperatorException("Cannot find the peering resource for " + selectors(clusterwide(settings, namespaces)) + ".");
        }
        objects.forEach(object -> object.touch(peer, false));
    }

    /** Stops watching the peers and keeping alive; this operator's records stay until {@link #release}. */
    @Override
    public void stopTakingWork() {
        neighbourhoods.forEach(Neighbourhood::stop);
    }

    /**
     * Removes this operator's records, so that paused peers resume at once instead of after the
     * lifetime; only once the handlers are done: the peers that take over must not meet them running.
     */
    @Override
    public void release(boolean handlersEnded) {
        neighbourhoods.forEach(Neighbourhood::leave);
    }

    /** Kopf's toggle set: paused while any peering object has conflicts, or the mandatory peering has none. */
    private synchronized void adjust() {
        if (missing || neighbourhoods.stream().anyMatch(Neighbourhood::conflicts)) {
            orchestrator.pause(PAUSER);
        } else {
            orchestrator.resume(PAUSER);
        }
    }

    /** The peering objects of the operator: one per peering resource and served namespace (Kopf's orchestration). */
    private static List<PeeringObject> objects(KubernetesClient client, OperatorSettings settings, List<String> namespaces) {
        boolean clusterwide = clusterwide(settings, namespaces);
        String plural = clusterwide ? "clusterkopfpeerings" : "kopfpeerings";
        List<Resource> resources = new Discovery(client, startupRetries(settings)).resources(GROUPS).stream()
                .filter(resource -> resource.plural().equals(plural) && resource.version().equals("v1"))
                .toList();
        if (resources.isEmpty()) {
            return List.of();
        }
        Collection<String> where = clusterwide ? Collections.singletonList(null) : peeringNamespaces(client, namespaces);
        List<PeeringObject> objects = new ArrayList<>();
        for (Resource resource : resources) {
            for (String namespace : where) {
                objects.add(new PeeringObject(client, resource, namespace, settings.peering.name));
            }
        }
        return objects;
    }

    /** A busy server is asked again, as Kopf asks it; one that cannot be reached is reported at once. */
    private static ApiRetries startupRetries(OperatorSettings settings) {
        return ApiRetries.of(settings).busyServerOnly();
    }

    /**
     * An operator without the permission to list the peering objects (RBAC of its own resources
     * only) runs without them, rather than retrying a forbidden watch forever.
     */
    private static boolean canList(PeeringObject object, ApiRetries retries) {
        try {
            retries.get(ApiRequest.collection(object.client(), object.resource(), object.namespace()).query("limit", "1"), LOG);
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
                LOG.warn("The peering objects {} cannot be listed {} (HTTP 403); no peering there.{}", object.resource().plural(),
                        object.namespace() == null ? "cluster-wide" : "in " + object.namespace(), ApiErrors.forbiddenHint(e));
                return false;
            }
            throw e;
        }
    }

    /**
     * The namespaces whose {@code KopfPeering} this operator joins: those matching its patterns when
     * it starts (namespaces created later are not joined), or, if namespaces may not be listed, the
     * exact names among the patterns.
     */
    private static Collection<String> peeringNamespaces(KubernetesClient client, List<String> namespaces) {
        NamespacePatterns patterns = new NamespacePatterns(namespaces);
        if (patterns.literal()) {
            return patterns.literals();
        }
        try {
            return client.namespaces().list().getItems().stream().map(namespace -> namespace.getMetadata().getName())
                    .filter(patterns::matches).toList();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_FORBIDDEN) {
                throw e;
            }
            LOG.warn("Namespaces cannot be listed (HTTP 403); the peering is joined only in the exact namespace names"
                    + " among {}: {}", patterns, patterns.literals());
            return patterns.literals();
        }
    }

    private static boolean clusterwide(OperatorSettings settings, List<String> namespaces) {
        return settings.peering.clusterwide != null ? settings.peering.clusterwide : namespaces.isEmpty();
    }

    private static String selectors(boolean clusterwide) {
        String plural = clusterwide ? "clusterkopfpeerings" : "kopfpeerings";
        return "[kopf.dev/v1/" + plural + ", zalando.org/v1/" + plural + "]";
    }
}
