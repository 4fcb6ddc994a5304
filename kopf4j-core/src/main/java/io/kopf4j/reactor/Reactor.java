package io.kopf4j.reactor;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.Memo;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.clients.Discovery;
import io.kopf4j.clients.ObjectPatcher;
import io.kopf4j.clients.Resources;
import io.kopf4j.intents.HandlerRegistry;
import io.kopf4j.intents.NamespacePatterns;
import io.kopf4j.intents.ResourceSelector;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running operator's machinery, Kopf's observation and orchestration: resolves the handlers'
 * resources through discovery, follows the namespaces that match the patterns, and keeps one
 * watcher per resource and namespace, each feeding the resource's per-object workers.
 */
public final class Reactor {
    private static final Logger LOG = LoggerFactory.getLogger(Reactor.class);
    /** The core namespaces resource: stable since Kubernetes 1.0, so not looked up. */
    private static final Resource NAMESPACES = new Resource("", "v1", "namespaces", "Namespace", "namespace",
            List.of("ns"), List.of(), List.of("status"), false, true, List.of("list", "watch"));

    private final KubernetesClient client;
    private final HandlerRegistry registry;
    private final NamespacePatterns patterns;
    private final OperatorThreads threads;
    private final OperatorSettings settings;
    private final Memo memo;
    private final Map<String, ResourceWatcher> watchers = new ConcurrentHashMap<>();
    private final Map<Resource, ObjectWorkers> workers = new ConcurrentHashMap<>();
    private final Set<Resource> served = ConcurrentHashMap.newKeySet();
    private final Set<String> namespaces = ConcurrentHashMap.newKeySet();
    private ObjectPatcher patcher;
    private ResourceWatcher namespaceWatcher;
    private volatile boolean stopped;

    /**
     * @param namespaces the namespace patterns to serve; empty means cluster-wide
     */
    public Reactor(KubernetesClient client, HandlerRegistry registry, List<String> namespaces, OperatorThreads threads,
                   OperatorSettings settings, Memo memo) {
        this.client = client;
        this.registry = registry;
        this.patterns = new NamespacePatterns(namespaces);
        this.threads = threads;
        this.settings = settings;
        this.memo = memo;
    }

    /** Resolves the resources and starts watching; fails with a clear message if it cannot. */
    public void start() {
        LOG.debug("Connecting to {}", client.getMasterUrl());
        patcher = new ObjectPatcher(client);
        served.addAll(resolveResources());
        if (patterns.clusterWide()) {
            served.forEach(resource -> ensureWatcher(resource, null));
        } else if (patterns.literal() || !canWatchNamespaces()) {
            namespaces.addAll(patterns.literals());
            served.forEach(this::ensureWatchers);
        } else {
            served.stream().filter(r -> !r.namespaced()).forEach(r -> ensureWatcher(r, null));
            namespaceWatcher = new ResourceWatcher(client, NAMESPACES, null, this::namespaceEvent);
            threads.start("kopf4j-namespaces", namespaceWatcher);
        }
    }

    /** Waits until every watched resource has delivered its initial listing. */
    public boolean awaitListed(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (namespaceWatcher != null && !namespaceWatcher.listed().await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            return false;
        }
        for (ResourceWatcher watcher : List.copyOf(watchers.values())) {
            if (!watcher.listed().await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }

    /** Stops watching and taking events; handlers in flight finish in their own time. */
    public synchronized void stop() {
        stopped = true;
        if (namespaceWatcher != null) {
            namespaceWatcher.stop();
        }
        watchers.values().forEach(ResourceWatcher::stop);
        workers.values().forEach(ObjectWorkers::stop);
    }

    private void namespaceEvent(WatchEvent event) {
        String name = event.name();
        if (name == null || !patterns.matches(name)) {
            return;
        }
        if (event.isDeleted()) {
            if (namespaces.remove(name)) {
                LOG.info("Namespace {} is gone; its watchers stop.", name);
                dropWatchers(name);
            }
        } else if (namespaces.add(name)) {
            LOG.debug("Namespace {} matches {}; serving it.", name, patterns);
            served.stream().filter(Resource::namespaced).forEach(resource -> ensureWatcher(resource, name));
        }
    }

    private void ensureWatchers(Resource resource) {
        if (resource.namespaced()) {
            namespaces.forEach(namespace -> ensureWatcher(resource, namespace));
        } else {
            ensureWatcher(resource, null);
        }
    }

    private synchronized void ensureWatcher(Resource resource, String namespace) {
        if (stopped) {
            return;
        }
        watchers.computeIfAbsent(key(resource, namespace), key -> {
            ObjectWorkers objectWorkers = workers.computeIfAbsent(resource, r ->
                    new ObjectWorkers(new EventProcessor(r, registry, settings, patcher), threads, settings, memo));
            ResourceWatcher watcher = new ResourceWatcher(client, resource, namespace, objectWorkers::dispatch);
            threads.start("kopf4j-watcher-" + watcher.describe().replace(' ', '-'), watcher);
            LOG.debug("Watching {}", watcher.describe());
            return watcher;
        });
    }

    private synchronized void dropWatchers(String namespace) {
        watchers.entrySet().removeIf(entry -> {
            if (entry.getKey().endsWith("|" + namespace)) {
                entry.getValue().stop();
                return true;
            }
            return false;
        });
    }

    private boolean canWatchNamespaces() {
        try {
            Resources.collection(client, NAMESPACES, null).list(new ListOptionsBuilder().withLimit(1L).build());
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
                LOG.warn("Namespaces cannot be watched (HTTP 403); serving only the exact namespace names among {}: {}",
                        patterns, patterns.literals());
                return false;
            }
            throw e;
        }
    }

    private static String key(Resource resource, String namespace) {
        return resource + "|" + (namespace == null ? "" : namespace);
    }

    private List<Resource> resolveResources() {
        Set<ResourceSelector> selectors = registry.selectors();
        Set<String> groups = new HashSet<>();
        for (ResourceSelector selector : selectors) {
            if (selector.groupsToDiscover() == null) {
                groups = null;
                break;
            }
            groups.addAll(selector.groupsToDiscover());
        }
        List<Resource> discovered = new Discovery(client).resources(groups);
        LOG.debug("Discovered {} resources at {}", discovered.size(), client.getMasterUrl());

        Set<Resource> resolved = new LinkedHashSet<>();
        for (ResourceSelector selector : selectors) {
            ResourceSelector.Resolution resolution = selector.resolve(discovered);
            if (resolution.resources().isEmpty()) {
                throw new OperatorException("unknown resource '" + selector + "': the API server at "
                        + client.getMasterUrl() + " serves no resource with that plural, singular, kind or short name"
                        + " (is its CRD installed?)");
            }
            if (resolution.ambiguous()) {
                throw new OperatorException("ambiguous resource '" + selector + "': it matches " + resolution.resources()
                        + "; name the group too, e.g. '" + resolution.resources().get(0).plural() + "."
                        + resolution.resources().get(0).group() + "'");
            }
            for (Resource resource : resolution.resources()) {
                if (!resource.verbs().containsAll(List.of("list", "watch", "patch"))) {
                    throw new OperatorException("resource " + resource + " cannot be served: its verbs " + resource.verbs()
                            + " lack list, watch or patch");
                }
                resolved.add(resource);
            }
        }
        return new ArrayList<>(resolved);
    }
}
