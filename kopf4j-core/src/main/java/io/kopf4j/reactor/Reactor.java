package io.kopf4j.reactor;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Memo;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.clients.Discovery;
import io.kopf4j.clients.ObjectPatcher;
import io.kopf4j.intents.HandlerRegistry;
import io.kopf4j.intents.ResourceSelector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running operator's machinery: resolves the handlers' resources through discovery, then
 * runs one watcher per resource and namespace, each feeding per-object workers.
 */
public final class Reactor {
    private static final Logger LOG = LoggerFactory.getLogger(Reactor.class);

    private final KubernetesClient client;
    private final HandlerRegistry registry;
    private final List<String> namespaces;
    private final OperatorThreads threads;
    private final OperatorSettings settings;
    private final Memo memo;
    private final List<ResourceWatcher> watchers = new ArrayList<>();
    private final List<ObjectWorkers> workers = new ArrayList<>();

    /**
     * @param namespaces the namespaces to serve; empty means cluster-wide
     */
    public Reactor(KubernetesClient client, HandlerRegistry registry, List<String> namespaces, OperatorThreads threads,
                   OperatorSettings settings, Memo memo) {
        this.client = client;
        this.registry = registry;
        this.namespaces = List.copyOf(namespaces);
        this.threads = threads;
        this.settings = settings;
        this.memo = memo;
    }

    /** Resolves the resources and starts watching; fails with a clear message if it cannot. */
    public void start() {
        LOG.debug("Connecting to {}", client.getMasterUrl());
        ObjectPatcher patcher = new ObjectPatcher(client);
        for (Resource resource : resolveResources()) {
            EventProcessor processor = new EventProcessor(resource, registry, settings, patcher);
            ObjectWorkers objectWorkers = new ObjectWorkers(processor, threads, settings, memo);
            workers.add(objectWorkers);
            for (String namespace : resource.namespaced() && !namespaces.isEmpty() ? namespaces : nullList()) {
                ResourceWatcher watcher = new ResourceWatcher(client, resource, namespace, objectWorkers::dispatch);
                watchers.add(watcher);
                threads.start("kopf4j-watcher-" + watcher.describe().replace(' ', '-'), watcher);
                LOG.debug("Watching {}", watcher.describe());
            }
        }
    }

    /** Waits until every watcher has delivered its initial listing. */
    public boolean awaitListed(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ResourceWatcher watcher : watchers) {
            if (!watcher.listed().await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }

    /** Stops watching and taking events; handlers in flight finish in their own time. */
    public void stop() {
        watchers.forEach(ResourceWatcher::stop);
        workers.forEach(ObjectWorkers::stop);
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

    private static List<String> nullList() {
        List<String> clusterWide = new ArrayList<>();
        clusterWide.add(null);
        return clusterWide;
    }
}
