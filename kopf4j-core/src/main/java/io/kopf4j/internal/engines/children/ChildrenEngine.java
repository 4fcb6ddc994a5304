package io.kopf4j.internal.engines.children;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.intents.ChildrenHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.NamespacePatterns;
import io.kopf4j.internal.intents.SpawningCause;
import io.kopf4j.internal.reactor.processing.Childing;
import io.kopf4j.internal.runtime.Engine;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorChecks;
import io.kopf4j.internal.runtime.OperatorThreads;
import io.kopf4j.internal.selection.LabelSelector;
import io.kopf4j.internal.selection.Selection;
import io.kopf4j.internal.watching.ResourceWatcher;
import io.kopf4j.internal.watching.WatchEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The children of {@code @Children} handlers: applied, pruned, watched and repaired. At the start,
 * the declared kinds are resolved against discovery and watched, one label-selected watcher per
 * kind (and namespace, when the operator serves literal namespaces), narrowed to this operator's
 * children ({@code kopf4j.dev/managed-by=<fieldManager>}); their first listings fill the
 * {@link ChildCache} before any parent is handled, so that the first runs compare with what exists
 * instead of writing everything again. A child's event reaches its parent through its controller
 * owner reference, as a recheck of the parent through its queue; the parent's handlers run there
 * ({@link ParentChildren}). Operators without children handlers start nothing and pay nothing.
 *
 * <pre>{@code
 * ChildrenEngine children = start(new ChildrenEngine(client, services, discovery, execution));
 * Reactor reactor = new Reactor(..., daemons, children, indexes, sharding);
 * }</pre>
 */
public final class ChildrenEngine implements Engine, Childing {
    /** How long the start waits for the children's first listings. */
    private static final Duration LISTING = Duration.ofSeconds(60);

    private final KubernetesClient client;
    private final HandlerRegistry registry;
    private final NamespacePatterns namespaces;
    private final OperatorSettings settings;
    private final Metrics metrics;
    private final OperatorThreads threads;
    private final OperatorChecks checks;
    private final ChildKinds.Discovery discovery;
    private final Execution execution;
    private final ChildCache cache = new ChildCache();
    private final List<ResourceWatcher> watchers = new ArrayList<>();
    private final Map<String, ParentChildren> parents = new ConcurrentHashMap<>();
    private volatile boolean paused;
    private ChildrenApplier applier;

    /**
     * @param namespaces the operator's namespace patterns; empty: cluster-wide
     * @param discovery what the API server serves, for the declared kinds
     * @param execution how handlers run
     */
    public ChildrenEngine(KubernetesClient client, HandlerRegistry registry, List<String> namespaces,
                          ChildKinds.Discovery discovery, Execution execution, OperatorSettings settings, Metrics metrics,
                          OperatorThreads threads, OperatorChecks checks) {
        this.client = client;
        this.registry = registry;
        this.namespaces = new NamespacePatterns(namespaces);
        this.discovery = discovery;
        this.execution = execution;
        this.settings = settings;
        this.metrics = metrics;
        this.threads = threads;
        this.checks = checks;
    }

    @Override
    public void start() throws InterruptedException {
        List<ChildrenHandler> handlers = registry.childrenHandlers();
        if (handlers.isEmpty()) {
            return;   // no cost for operators without children
        }
        Map<ChildrenHandler, Map<String, Resource>> kinds = new IdentityHashMap<>();
        Map<String, Resource> watched = new LinkedHashMap<>();
        for (ChildrenHandler handler : handlers) {
            Map<String, Resource> declared = ChildKinds.of(handler, discovery);
            kinds.put(handler, declared);
            watched.putAll(declared);
        }
        String fieldManager = settings.children.fieldManager;
        applier = new ChildrenApplier(cache, new ChildWrites(client, ApiRetries.of(settings), fieldManager), kinds,
                fieldManager, metrics);
        Selection managed = new Selection(LabelSelector.parse(DesiredChildren.MANAGED_BY + "=" + fieldManager), null);
        for (Resource resource : watched.values()) {
            // Patterns (globs, exclusions) are not namespaces to watch in: the watch is then cluster-wide, by label.
            List<String> scopes = !resource.namespaced() || !namespaces.literal() || namespaces.clusterWide()
                    ? Collections.singletonList(null) : List.copyOf(namespaces.literals());
            for (String namespace : scopes) {
                ResourceWatcher watcher = new ResourceWatcher(client, resource, namespace, managed, this::arrived, settings,
                        metrics);
                watchers.add(watcher);
                threads.start("kopf4j-children-" + watcher.describe().replace(' ', '-'), watcher);
            }
        }
        for (ResourceWatcher watcher : watchers) {
            if (!watcher.listed().await(LISTING.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException("the children's " + watcher.describe() + " did not list within " + LISTING);
            }
        }
        checks.liveness("children-watchers", this::checkWatchersAlive);
    }

    @Override
    public void stopTakingWork() {
        watchers.forEach(ResourceWatcher::stop);
        parents.values().forEach(ParentChildren::gone);
    }

    @Override
    public ObjectChildren object(Resource resource, String uid, Runnable recheck) {
        ParentChildren children = new ParentChildren(uid, recheck, registry, execution, applier, () -> paused);
        parents.put(uid, children);
        return new ObjectChildren() {
            @Override
            public void reconcile(SpawningCause cause, Map<String, Object> essence) {
                children.reconcile(cause, essence);
            }

            @Override
            public void gone() {
                parents.remove(uid, children);
                children.gone();
            }
        };
    }

    @Override
    public void pause() {
        paused = true;
    }

    @Override
    public void resume() {
        paused = false;
    }

    /** {@return how many children are cached: the gauge of their memory} */
    public int cached() {
        return cache.size();
    }

    /** The liveness check {@code children-watchers}: a child watch that died would leave drift unrepaired. */
    private void checkWatchersAlive() {
        List<String> dead = watchers.stream().filter(w -> w.died() != null).map(w -> w.describe() + " (" + w.died() + ")")
                .toList();
        if (!dead.isEmpty()) {
            throw new IllegalStateException("children's watchers died: " + String.join("; ", dead));
        }
    }

    private void arrived(WatchEvent event) {
        // A listing too: after a re-list (a watch that expired), what changed meanwhile reaches its parents.
        Set<String> owners = event.isDeleted() ? cache.gone(event.object()) : cache.seen(event.object());
        for (String uid : owners) {
            ParentChildren parent = parents.get(uid);
            if (parent != null) {   // a parent not seen yet runs at its first event anyway
                parent.request();
            }
        }
    }
}
