package io.kopf4j.internal.engines.children;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.runtime.Engine;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import io.kopf4j.internal.watching.ResourceWatcher;
import io.kopf4j.internal.watching.WatchEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The children of the operator's objects, watched (WIP: the apply and prune path and the reactor's
 * hook are not here yet; see design-notes/next-steps.md): one label-selected watcher per declared
 * kind and namespace (cluster-wide when the operator is), the events kept in the {@link ChildCache},
 * and the parents they name run again through the {@link Coalescer}.
 *
 * <pre>{@code
 * ChildrenEngine children = new ChildrenEngine(client, registry, namespaces, discovery, settings, metrics, threads, rerun);
 * children.start();   // lists every declared kind before the parents are handled
 * }</pre>
 */
public final class ChildrenEngine implements Engine {
    /** How long the start waits for the children's first listings. */
    private static final Duration LISTING = Duration.ofSeconds(60);

    private final KubernetesClient client;
    private final HandlerRegistry registry;
    private final List<String> namespaces;
    private final OperatorSettings settings;
    private final Metrics metrics;
    private final OperatorThreads threads;
    private final ChildKinds.Discovery discovery;
    private final ChildCache cache = new ChildCache();
    private final Coalescer runs;
    private final List<ResourceWatcher> watchers = new ArrayList<>();
    private Map<String, Resource> kinds = Map.of();

    /**
     * @param namespaces the operator's namespaces (literal names); empty: cluster-wide
     * @param discovery what the API server serves, for the declared kinds
     * @param rerun runs a parent again, by its uid
     */
    public ChildrenEngine(KubernetesClient client, HandlerRegistry registry, List<String> namespaces,
                          ChildKinds.Discovery discovery, OperatorSettings settings, Metrics metrics,
                          OperatorThreads threads, Consumer<String> rerun) {
        this.client = client;
        this.discovery = discovery;
        this.registry = registry;
        this.namespaces = List.copyOf(namespaces);
        this.settings = settings;
        this.metrics = metrics;
        this.threads = threads;
        this.runs = new Coalescer(rerun);
    }

    @Override
    public void start() throws InterruptedException {
        if (registry.childrenHandlers().isEmpty()) {
            return;   // no cost for operators without children
        }
        kinds = ChildKinds.resolve(registry.childrenHandlers(), discovery);
        String selector = DesiredChildren.MANAGED_BY + "=" + fieldManager();
        for (Resource resource : kinds.values()) {
            List<String> scopes = !resource.namespaced() || namespaces.isEmpty() ? Collections.singletonList(null) : namespaces;
            for (String namespace : scopes) {
                ResourceWatcher watcher = new ResourceWatcher(client, resource, namespace, selector, this::arrived, settings, metrics);
                watchers.add(watcher);
                threads.start("kopf4j-children-watch-" + resource.plural() + (namespace == null ? "" : "-" + namespace), watcher);
            }
        }
        for (ResourceWatcher watcher : watchers) {
            if (!watcher.listed().await(LISTING.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException("the children's " + watcher.describe() + " did not list within " + LISTING);
            }
        }
    }

    @Override
    public void stopTakingWork() {
        watchers.forEach(ResourceWatcher::stop);
    }

    /** The field manager of the applies, which the children's label names too. */
    String fieldManager() {
        return "kopf4j";
    }

    /** {@return this parent's children as last seen} */
    List<Map<String, Object>> childrenOf(String parentUid) {
        return cache.childrenOf(parentUid);
    }

    private void arrived(WatchEvent event) {
        Set<String> parents = event.isDeleted() ? cache.gone(event.object()) : cache.seen(event.object());
        if (!event.isListing()) {
            parents.forEach(runs::request);
        }
    }
}
