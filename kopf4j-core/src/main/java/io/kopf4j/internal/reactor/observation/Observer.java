package io.kopf4j.internal.reactor.observation;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.clients.ApiRequest;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.clients.Discovery;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.NamespacePatterns;
import io.kopf4j.internal.intents.ResourceSelector;
import io.kopf4j.internal.reactor.orchestration.Orchestrator;
import io.kopf4j.internal.reactor.orchestration.WatcherKey;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.watching.ResourceWatcher;
import io.kopf4j.internal.watching.WatchEvent;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What to serve, as Kopf's observation: resolves the handlers' resources through discovery, follows
 * the namespaces that match the patterns and the CRDs that appear and vanish while the operator
 * runs, and tells the orchestrator which resource and namespace to watch or to drop.
 */
public final class Observer {
    private static final Logger LOG = LoggerFactory.getLogger(Observer.class);
    /** The core namespaces resource: stable since Kubernetes 1.0, so not looked up. */
    private static final Resource NAMESPACES = new Resource("", "v1", "namespaces", "Namespace", "namespace",
            List.of("ns"), List.of(), List.of("status"), false, true, List.of("list", "watch"));
    /** CustomResourceDefinitions, watched to serve resources whose CRDs come and go while running. */
    private static final Resource CRDS = new Resource("apiextensions.k8s.io", "v1", "customresourcedefinitions",
            "CustomResourceDefinition", "customresourcedefinition", List.of("crd", "crds"), List.of(),
            List.of("status"), false, true, List.of("list", "watch"));
    private static final int RESCAN_ATTEMPTS = 20;
    private static final Duration RESCAN_INTERVAL = Duration.ofMillis(250);

    private final KubernetesClient client;
    private final KubernetesClient watchClient;
    private final HandlerRegistry registry;
    private final NamespacePatterns patterns;
    private final OperatorThreads threads;
    private final OperatorSettings settings;
    private final Metrics metrics;
    private final Orchestrator orchestrator;
    /** For discovery and the permission checks: a busy server is asked again, as Kopf asks it. */
    private final ApiRetries retries;
    private final Set<Resource> served = ConcurrentHashMap.newKeySet();
    private final Set<String> namespaces = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean rescanPending = new AtomicBoolean();
    private final List<Runnable> rescanListeners = new CopyOnWriteArrayList<>();
    /**
     * Open once {@link #start()} has placed the first watchers. Until then a listing wait would see
     * only the watchers placed so far: the indexed resource's may come after the one whose objects
     * already wait at the indexes' barrier, which would then open on a partial index.
     */
    private final CountDownLatch placed = new CountDownLatch(1);
    private ResourceWatcher namespaceWatcher;
    private ResourceWatcher crdWatcher;
    private volatile boolean stopped;
    /** The latest discovery's outcome; null until the first. */
    private volatile ResourceInsights insights;

    /**
     * @param watchClient the client for watch streams (the same as {@code client} unless their timeouts differ)
     * @param namespaces the namespace patterns to serve; empty means cluster-wide
     */
    public Observer(KubernetesClient client, KubernetesClient watchClient, HandlerRegistry registry, List<String> namespaces,
                    OperatorThreads threads, OperatorSettings settings, Metrics metrics, Orchestrator orchestrator) {
        this.client = client;
        this.watchClient = watchClient;
        this.registry = registry;
        this.patterns = new NamespacePatterns(namespaces);
        this.threads = threads;
        this.settings = settings;
        this.metrics = metrics;
        this.orchestrator = orchestrator;
        this.retries = ApiRetries.of(settings).busyServerOnly();
    }

    /**
     * Resolves the resources and starts watching them. Resources that cannot be served (no CRD yet,
     * not watchable, not patchable) are logged with Kopf's warnings and skipped, and readiness
     * names them ({@link #checkServed()}); those whose CRDs appear later are served then.
     */
    public void start() {
        try {
            placeWatchers();
        } finally {
            placed.countDown();
        }
    }

    private void placeWatchers() {
        LOG.debug("Connecting to {}", client.getMasterUrl());
        ResourceInsights revised = revise();
        served.addAll(revised.served());
        if (patterns.clusterWide()) {
            served.forEach(resource -> ensureWatcher(resource, null));
        } else if (patterns.literal() || settings.scanning.disabled || !canWatchNamespaces()) {
            if (!patterns.literal()) {
                LOG.warn("Namespaces are not scanned (settings.scanning.disabled); serving only the exact namespace names"
                        + " among {}: {}", patterns, patterns.literals());
            }
            namespaces.addAll(patterns.literals());
            served.forEach(this::ensureWatchers);
        } else {
            served.stream().filter(r -> !r.namespaced()).forEach(r -> ensureWatcher(r, null));
            namespaceWatcher = new ResourceWatcher(watchClient, NAMESPACES, null, this::namespaceEvent, settings, metrics);
            namespaceWatcher.announce(List.of());
            threads.start("kopf4j-namespaces", namespaceWatcher);
        }
        insights = revised;   // before the CRDs' rescans, which revise it in turn
        if (!settings.scanning.disabled && observedSelectors().stream().anyMatch(s -> s.group() == null || !s.group().isEmpty())
                && canList(CRDS)) {
            crdWatcher = new ResourceWatcher(watchClient, CRDS, null, this::crdEvent, settings, metrics);
            crdWatcher.announce(List.of());
            threads.start("kopf4j-crds", crdWatcher);
        }
    }

    /**
     * Tells the listener after every rescan of the resources (a CRD of a handler's resource appeared,
     * changed or vanished): admission webhooks follow their resources with it, as Kopf's insights do.
     */
    public void onRescan(Runnable listener) {
        rescanListeners.add(listener);
    }

    /** The selectors whose CRDs concern the operator: the watched handlers' and the admission handlers'. */
    private Set<ResourceSelector> observedSelectors() {
        Set<ResourceSelector> selectors = new LinkedHashSet<>(registry.selectors());
        selectors.addAll(registry.webhookSelectors());
        return selectors;
    }

    /** Waits until the namespaces and every watched resource have delivered their initial listing. */
    public boolean awaitListed(Duration timeout) throws InterruptedException {
        return awaitListed(timeout, resource -> true);
    }

    /** Waits until the namespaces and the chosen resources (the indexed ones, say) have delivered their initial listing. */
    public boolean awaitListed(Duration timeout, Predicate<Resource> which) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (!placed.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            return false;
        }
        if (namespaceWatcher != null && !namespaceWatcher.listed().await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            return false;
        }
        return orchestrator.awaitListed(deadline, which);
    }

    /** True once the namespaces and every watched resource have delivered their initial listing; never blocks. */
    public boolean listed() {
        return placed.getCount() == 0 && (namespaceWatcher == null || namespaceWatcher.listed().getCount() == 0) && orchestrator.listed();
    }

    /** Stops observing; the orchestrator is stopped by its owner. */
    public synchronized void stop() {
        stopped = true;
        if (namespaceWatcher != null) {
            namespaceWatcher.stop();
        }
        if (crdWatcher != null) {
            crdWatcher.stop();
        }
    }

    private void namespaceEvent(WatchEvent event) {
        String name = event.name();
        if (name == null || !patterns.matches(name)) {
            return;
        }
        terminationBlockers(event.object()).forEach(blocker ->
                LOG.debug("Namespace '{}' termination pending: {}", name, blocker));
        if (event.isDeleted()) {
            if (namespaces.remove(name)) {
                LOG.info("Namespace {} is gone; its watchers stop.", name);
                orchestrator.dropNamespace(name);
            }
        } else if (namespaces.add(name)) {
            LOG.debug("Namespace {} matches {}; serving it.", name, patterns);
            served.stream().filter(Resource::namespaced).forEach(resource -> ensureWatcher(resource, name));
        }
    }

    /**
     * What keeps a namespace being deleted from going, as Kopf logs it: each of its conditions that is
     * {@code True}, as {@code reason: message} (Kopf's {@code get_blockers}). Its watchers stay until
     * its {@code DELETED} event, as they do without blockers, so that no finalizer is left unhandled.
     *
     * @return none for a namespace that is not being deleted
     */
    static List<String> terminationBlockers(Map<String, Object> namespace) {
        if (!(namespace.get("metadata") instanceof Map<?, ?> metadata) || metadata.get("deletionTimestamp") == null
                || !(namespace.get("status") instanceof Map<?, ?> status) || !(status.get("conditions") instanceof List<?> conditions)) {
            return List.of();
        }
        List<String> blockers = new ArrayList<>();
        for (Object item : conditions) {
            if (item instanceof Map<?, ?> condition && "True".equals(condition.get("status"))) {
                blockers.add(Objects.toString(condition.get("reason"), "") + ": " + Objects.toString(condition.get("message"), ""));
            }
        }
        return blockers;
    }

    private void ensureWatchers(Resource resource) {
        if (resource.namespaced()) {
            namespaces.forEach(namespace -> ensureWatcher(resource, namespace));
        } else {
            ensureWatcher(resource, null);
        }
    }

    private void ensureWatcher(Resource resource, String namespace) {
        if (!stopped) {
            orchestrator.ensure(new WatcherKey(resource, namespace));
        }
    }

    private boolean canWatchNamespaces() {
        if (canList(NAMESPACES)) {
            return true;
        }
        LOG.warn("Not enough permissions to list namespaces. Falling back to a list of namespaces which are assumed"
                + " to exist: {}", pythonSet(patterns.literals()));
        return false;
    }

    private boolean canList(Resource resource) {
        try {
            retries.get(ApiRequest.collection(client, resource, null).query("limit", "1"), LOG);
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
                if (resource == CRDS) {
                    LOG.warn("Not enough permissions to watch for resources: changes (creation/deletion/updates) will"
                            + " not be noticed; the resources are only refreshed on operator restarts.");
                }
                return false;
            }
            throw e;
        }
    }

    /** A CRD of a selected resource appeared, changed or vanished after the start: rescan. */
    private void crdEvent(WatchEvent event) {
        if (!event.isListing() && concernsSelectors(event.object())) {
            rescanLater();
        }
    }

    @SuppressWarnings("unchecked")
    private boolean concernsSelectors(Map<String, Object> crd) {
        if (!(crd.get("spec") instanceof Map<?, ?> spec) || !(spec.get("names") instanceof Map<?, ?> names)) {
            return false;
        }
        List<String> shortNames = names.get("shortNames") instanceof List<?> list ? (List<String>) list : List.of();
        List<String> categories = names.get("categories") instanceof List<?> list ? (List<String>) list : List.of();
        List<Resource> versions = new ArrayList<>();
        if (spec.get("versions") instanceof List<?> declared) {
            for (Object version : declared) {
                if (version instanceof Map<?, ?> v) {
                    versions.add(new Resource(String.valueOf(spec.get("group")), String.valueOf(v.get("name")),
                            String.valueOf(names.get("plural")), String.valueOf(names.get("kind")),
                            String.valueOf(names.get("singular")), shortNames, categories, List.of(),
                            "Namespaced".equals(spec.get("scope")), true, List.of()));
                }
            }
        }
        return observedSelectors().stream().anyMatch(selector -> versions.stream().anyMatch(selector::matches));
    }

    /**
     * Re-reads discovery soon after a CRD changed (many events at once make one rescan) and serves
     * what appeared, drops what vanished. A CRD is Established a moment before discovery lists it,
     * so the rescan repeats for a few seconds until the served set settles.
     */
    private void rescanLater() {
        if (stopped || !rescanPending.compareAndSet(false, true)) {
            return;
        }
        threads.start("kopf4j-rescan", () -> {
            try {
                Set<Resource> before = Set.copyOf(served);
                for (int attempt = 0; attempt < RESCAN_ATTEMPTS && !stopped; attempt++) {
                    Thread.sleep(RESCAN_INTERVAL);
                    rescanPending.set(false);
                    rescan();
                    if (!served.equals(before)) {
                        return;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                LOG.error("Rescanning the API resources failed: {}", e.getMessage(), e);
            } finally {
                rescanPending.set(false);
            }
        });
    }

    private synchronized void rescan() {
        ResourceInsights revised = revise();
        Set<Resource> current = revised.served();
        for (Resource resource : current) {
            if (served.add(resource)) {
                LOG.info("Resource {} is served now.", resource);
                ensureWatchers(resource);
            }
        }
        for (Resource resource : Set.copyOf(served)) {
            if (!current.contains(resource)) {
                served.remove(resource);
                LOG.info("Resource {} is not served any more; its watchers stop.", resource);
                orchestrator.dropResource(resource);
            }
        }
        insights = revised;   // only now: readiness must not pass before the new resources' watchers exist
        rescanListeners.forEach(Runnable::run);
    }

    /**
     * Liveness: fails if the thread of a watcher (of the namespaces, the CRDs or a resource) has died.
     *
     * @throws IllegalStateException naming the dead watchers and why
     */
    public void checkWatchersAlive() {
        List<String> dead = new ArrayList<>();
        for (ResourceWatcher watcher : new ResourceWatcher[]{namespaceWatcher, crdWatcher}) {
            if (watcher != null && watcher.died() != null) {
                dead.add(watcher.describe() + " (" + watcher.died() + ")");
            }
        }
        dead.addAll(orchestrator.deadWatchers());
        if (!dead.isEmpty()) {
            throw new IllegalStateException("watchers died: " + String.join("; ", dead));
        }
    }

    /**
     * Readiness: fails while a watched handler's selector serves no resource, naming each with the
     * reason (its CRD is missing, it is ambiguous, not watchable or not patchable).
     *
     * @throws IllegalStateException with what is missing
     */
    public void checkServed() {
        ResourceInsights current = insights;
        if (current == null) {
            throw new IllegalStateException("the handlers' resources are not discovered yet");
        }
        if (!current.unserved().isEmpty()) {
            List<String> missing = new ArrayList<>();
            current.unserved().forEach((selector, reason) -> missing.add(selector + " (" + reason + ")"));
            throw new IllegalStateException("not served: " + String.join("; ", missing));
        }
    }

    /**
     * Discovers the resources the watched handlers' selectors resolve to now, as Kopf's
     * {@code revise_resources}, and warns of what cannot be served and was not so before; the
     * caller keeps the outcome once it serves it.
     */
    private synchronized ResourceInsights revise() {
        Set<ResourceSelector> selectors = registry.selectors();
        List<Resource> discovered = new Discovery(client, retries).resources(ResourceSelector.groupsToDiscover(selectors));
        LOG.debug("Discovered {} resources at {}", discovered.size(), client.getMasterUrl());
        ResourceInsights before = insights == null ? ResourceInsights.NONE : insights;
        ResourceInsights after = ResourceInsights.revise(selectors, discovered,
                resource -> !registry.changingHandlers(resource).isEmpty() || registry.hasSpawningHandlers(resource));
        warnOfNewProblems(before, after);
        warnOfStateInTwoVersions(before, after);
        after.unresolved().stream().filter(selector -> !before.unresolved().contains(selector))
                .forEach(selector -> warnOfUnresolved(selector, discovered));
        return after;
    }

    /** After Kopf's line: the handlers that ask for the resource, and the served name it may be a typo of. */
    private void warnOfUnresolved(ResourceSelector selector, List<Resource> discovered) {
        List<String> origins = registry.origins(selector);
        String suggestion = ClosestResourceName.of(selector, discovered).map(name -> "; did you mean " + name + "?").orElse("");
        LOG.warn("Unresolved resource {} is asked for by {}{}", selector,
                origins.isEmpty() ? "a handler" : String.join(", ", origins), suggestion);
    }

    /** Kopf's warnings, each once a problem appears rather than at every rescan. */
    private static void warnOfNewProblems(ResourceInsights before, ResourceInsights after) {
        after.ambiguous().forEach((selector, matched) -> {
            if (!before.ambiguous().containsKey(selector)) {
                LOG.warn("Ambiguous resources will not be served (try specifying API groups): {} => {}",
                        selector.kopfRepr(), pythonSet(matched));
            }
        });
        if (!before.unresolved().containsAll(after.unresolved())) {
            LOG.warn("Unresolved resources cannot be served (try creating their CRDs): {}",
                    after.unresolved().stream().map(ResourceSelector::kopfRepr).collect(Collectors.joining(", ")));
        }
        if (!before.nonWatchable().containsAll(after.nonWatchable())) {
            LOG.warn("Non-watchable resources will not be served: {}", pythonSet(after.nonWatchable()));
        }
        if (!before.nonPatchable().containsAll(after.nonPatchable())) {
            LOG.warn("Non-patchable resources will not be served: {}", pythonSet(after.nonPatchable()));
        }
    }

    /**
     * kopf4j's own warning: the stateful handlers (changing, daemons, timers, children) of one kind
     * watch it in two versions, e.g. one names {@code v1alpha1} and another takes the preferred
     * {@code v1}. Each object is then handled twice, and both share its finalizer, progress and
     * last-handled state; docs/versions.md keeps them on one version.
     */
    private void warnOfStateInTwoVersions(ResourceInsights before, ResourceInsights after) {
        Map<String, List<Resource>> byKind = new TreeMap<>();
        for (Resource resource : after.served()) {
            if (!registry.changingHandlers(resource).isEmpty() || registry.hasSpawningHandlers(resource)
                    || registry.hasChildrenHandlers(resource)) {
                byKind.computeIfAbsent(resource.plural() + "." + resource.group(), kind -> new ArrayList<>()).add(resource);
            }
        }
        byKind.forEach((kind, versions) -> {
            if (versions.size() > 1 && !before.served().containsAll(versions)) {
                LOG.warn("Handlers of {} watch it in {} versions ({}): each object is handled in each, with one finalizer,"
                        + " progress and last-handled state; name one version in all of them.", kind, versions.size(),
                        versions.stream().map(Resource::version).collect(Collectors.joining(", ")));
            }
        });
    }

    /** As Python prints a set: {@code {'a', 'b'}} for texts, {@code {pods.v1}} for resources, {@code set()} if empty. */
    private static String pythonSet(Collection<?> items) {
        return items.isEmpty() ? "set()" : "{" + String.join(", ", items.stream()
                .map(item -> item instanceof String text ? Json.pythonRepr(text) : item.toString()).toList()) + "}";
    }
}
