package io.kopf4j.internal.reactor.orchestration;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.reactor.queueing.ObjectQueues;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import io.kopf4j.internal.selection.Selection;
import io.kopf4j.internal.selection.Selections;
import io.kopf4j.internal.watching.LeanBodies;
import io.kopf4j.internal.watching.ResourceWatcher;
import io.kopf4j.internal.watching.SelectedObjects;
import io.kopf4j.internal.watching.SelectionSweep;
import io.kopf4j.internal.watching.WatchEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one watcher per resource and namespace (Kopf's orchestration), each feeding its resource's
 * per-object queues. Watchers can be paused and resumed as a whole, which is how peering, a lost
 * leader Lease or a change of shards stop the handling without stopping the operator: a paused
 * operator closes its watch streams, and resuming lists every resource again.
 */
public final class Orchestrator {
    private static final Logger LOG = LoggerFactory.getLogger(Orchestrator.class);

    private final KubernetesClient watchClient;
    private final OperatorThreads threads;
    private final OperatorSettings settings;
    private final Metrics metrics;
    private final Function<Resource, ObjectQueues> queuesFactory;
    private final Map<WatcherKey, ResourceWatcher> watchers = new ConcurrentHashMap<>();
    private final Map<Resource, ObjectQueues> queues = new ConcurrentHashMap<>();
    private final Selections selections;
    private final Predicate<Resource> swept;
    /** The objects known inside each selected resource's selection, per watcher key: they outlive a resume's new watcher. */
    private final Map<WatcherKey, SelectedObjects> selected = new ConcurrentHashMap<>();
    private final List<PauseListener> pauseListeners = new ArrayList<>();
    /** How long a wait for a listing lasts before the watchers are looked up again. */
    private static final Duration LISTING_RECHECK = Duration.ofMillis(200);
    /** Who holds the handling paused; it resumes when the last of them lets go. */
    private final Set<String> pausers = new HashSet<>();

    private record PauseListener(Runnable onPause, Runnable onResume) {
    }
    private boolean stopped;

    /**
     * @param selections the resources watched in part (server-side selectors), by resource
     * @param swept the selected resources whose objects may hold the operator's finalizer: swept once for
     *              those that left the selection while the operator was down ({@link SelectionSweep})
     * @param queuesFactory the per-object queues of a resource, made once per resource
     */
    public Orchestrator(KubernetesClient watchClient, OperatorThreads threads, OperatorSettings settings, Metrics metrics,
                        Selections selections, Predicate<Resource> swept, Function<Resource, ObjectQueues> queuesFactory) {
        this.selections = selections;
        this.swept = swept;
        this.watchClient = watchClient;
        this.threads = threads;
        this.settings = settings;
        this.metrics = metrics;
        this.queuesFactory = queuesFactory;
    }

    /** Starts watching the resource in the namespace (null: cluster-wide), unless it is watched already. */
    public synchronized void ensure(WatcherKey key) {
        if (stopped || watchers.containsKey(key)) {
            return;
        }
        ResourceWatcher watcher = newWatcher(key);
        watchers.put(key, watcher);
        watcher.announce(pausers);
        if (pausers.isEmpty()) {
            start(watcher);
        }
    }

    /** Stops the watchers of a namespace that is gone; its objects' workers finish within the exit timeout. */
    public synchronized void dropNamespace(String namespace) {
        drop(key -> namespace.equals(key.namespace()));
        queues.values().forEach(objects -> objects.stop(namespace, settings.queueing.exitTimeout));
    }

    /** Stops the watchers of a resource that is not served any more; its workers finish within the exit timeout. */
    public synchronized void dropResource(Resource resource) {
        drop(key -> key.resource().equals(resource));
        ObjectQueues objects = queues.get(resource);
        if (objects != null) {
            objects.stop(null, settings.queueing.exitTimeout);
        }
    }

    /**
     * Pauses the handling on behalf of {@code pauser} (peering, leadership, sharding, ...): every
     * watch stream is closed; events in the queues are still processed. The handling stays paused
     * until every pauser has resumed. Idempotent per pauser.
     */
    public synchronized void pause(String pauser) {
        if (pausers.add(pauser) && pausers.size() == 1 && !stopped) {
            LOG.info("Pausing the operator's watching of {} stream(s).", watchers.size());
            watchers.values().forEach(watcher -> watcher.pause(pausers));
            pauseListeners.forEach(listener -> listener.onPause().run());
        }
    }

    /**
     * Also told of every pause and resume: the engines that run beside the watching (daemons and
     * timers), so that whoever pauses (peering, leadership, sharding) pauses them too. A listener
     * added while paused (peering pauses before the reactor starts) is told of that pause at once.
     */
    public synchronized void addPauseListener(Runnable onPause, Runnable onResume) {
        pauseListeners.add(new PauseListener(onPause, onResume));
        if (!pausers.isEmpty() && !stopped) {
            onPause.run();
        }
    }

    /**
     * Withdraws {@code pauser}'s pause; when no other pauser holds one, every watcher lists its
     * resource again and watches on. Idempotent per pauser.
     */
    public synchronized void resume(String pauser) {
        if (pausers.remove(pauser) && pausers.isEmpty() && !stopped) {
            pauseListeners.forEach(listener -> listener.onResume().run());
            LOG.info("Resuming the operator's watching of {} stream(s).", watchers.size());
            watchers.replaceAll((key, old) -> {
                ResourceWatcher fresh = newWatcher(key);
                fresh.announceResume();
                start(fresh);
                return fresh;
            });
        }
    }

    public synchronized boolean paused() {
        return !pausers.isEmpty();
    }

    /** Stops watching and taking events for good; handlers in flight finish in their own time. */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        watchers.values().forEach(ResourceWatcher::stop);
        queues.values().forEach(ObjectQueues::stop);
    }

    /** {@return the watchers whose threads have died, each described with why} */
    public List<String> deadWatchers() {
        return watchers.values().stream().filter(watcher -> watcher.died() != null)
                .map(watcher -> watcher.describe() + " (" + watcher.died() + ")").toList();
    }

    /** True once every watcher has delivered its initial listing; never blocks. */
    public boolean listed() {
        return watchers.values().stream().allMatch(w -> w.listed().getCount() == 0);
    }

    /** Waits until every watcher has delivered its initial listing. */
    public boolean awaitListed(long deadlineNanos) throws InterruptedException {
        return awaitListed(deadlineNanos, resource -> true);
    }

    /**
     * Waits until the watchers of the resources chosen (the indexed ones, say) have delivered their
     * initial listing. The watchers are looked up again after each short wait: a resume replaces
     * them (a watcher made while paused never starts), so a wait on the old one would never end.
     */
    public boolean awaitListed(long deadlineNanos, Predicate<Resource> which) throws InterruptedException {
        while (true) {
            ResourceWatcher unlisted = List.copyOf(watchers.entrySet()).stream()
                    .filter(entry -> which.test(entry.getKey().resource()) && entry.getValue().listed().getCount() > 0)
                    .map(Map.Entry::getValue).findFirst().orElse(null);
            long left = deadlineNanos - System.nanoTime();
            if (unlisted == null) {
                return true;
            }
            if (left <= 0) {
                return false;
            }
            unlisted.listed().await(Math.min(left, LISTING_RECHECK.toNanos()), TimeUnit.NANOSECONDS);
        }
    }

    /** Whether no object whose key matches is processing an event, in any resource (see {@link ObjectQueues#idle}). */
    public boolean idle(Predicate<String> keys) {
        return queues.values().stream().allMatch(objects -> objects.idle(keys));
    }

    private void drop(Predicate<WatcherKey> which) {
        selected.keySet().removeIf(which);
        watchers.entrySet().removeIf(entry -> {
            if (which.test(entry.getKey())) {
                entry.getValue().stop();
                return true;
            }
            return false;
        });
    }

    private ResourceWatcher newWatcher(WatcherKey key) {
        ObjectQueues objects = queues.computeIfAbsent(key.resource(), queuesFactory);
        Consumer<WatchEvent> queue = settings.watching.keepManagedFields ? objects::dispatch : LeanBodies.before(objects::dispatch);
        Selection selection = selections.of(key.resource());
        if (selection == null) {
            return new ResourceWatcher(watchClient, key.resource(), key.namespace(), queue, settings, metrics);
        }
        SelectedObjects known = selected.computeIfAbsent(key, k -> {
            LOG.info("Watching only the {} selected by {}{} (settings.watching).", key.resource().plural(), selection,
                    key.namespace() == null ? "" : " in '" + key.namespace() + "'");
            SelectionSweep sweep = new SelectionSweep(watchClient, key.resource(), key.namespace(), selection, settings, queue);
            return new SelectedObjects(queue, !settings.watching.sweepAtStart || !swept.test(key.resource()) ? () -> { }
                    : () -> threads.start("kopf4j-sweep-" + key.resource().plural(), sweep));
        });
        return new ResourceWatcher(watchClient, key.resource(), key.namespace(), selection, known, settings, metrics);
    }

    private void start(ResourceWatcher watcher) {
        threads.start("kopf4j-watcher-" + watcher.describe().replace(' ', '-'), watcher);
    }
}
