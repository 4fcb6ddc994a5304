package io.kopf4j.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * The benchmark's view of the objects: one LIST, then one WATCH, so that it sees when the operator
 * has handled them without polling the API server (its requests would mix with the operator's).
 * When the API server lets the watch's resourceVersion expire (410 Gone, in bursts of thousands of
 * objects), it lists and watches again. It also notes when it saw each object go, so that a
 * benchmark can time each deletion from its DELETE's response.
 *
 * <pre>{@code
 * try (ObjectTracker tracker = new ObjectTracker(examples)) {
 *     long handledAt = tracker.await("ex-1", objects -> objects.containsKey("ex-1"), deadline);
 *     Long goneAt = tracker.deletions().get("ex-1");
 * }
 * }</pre>
 */
final class ObjectTracker implements AutoCloseable, Watcher<GenericKubernetesResource> {
    /** Long enough that the server never ends the watch within a run (each run has a fresh cluster). */
    private static final long WATCH_SECONDS = Duration.ofHours(6).toSeconds();

    private final Map<String, GenericKubernetesResource> objects = new HashMap<>();   // guarded by this
    private final Map<String, Long> deletedNanos = new HashMap<>();                    // guarded by this
    private long lastEventNanos;                                                       // guarded by this
    private WatcherException closed;                                                   // guarded by this
    private final FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> collection;
    private Watch watch;                                                               // guarded by this
    private boolean stopped;                                                           // guarded by this

    /** @param collection a namespace's objects of a kind, or those of them with a label ({@code withLabel}) */
    ObjectTracker(FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> collection) {
        this.collection = collection;
        listAndWatch();
    }

    private synchronized void listAndWatch() {
        if (stopped) {
            return;
        }
        GenericKubernetesResourceList list = collection.list();
        long now = System.nanoTime();
        Set<String> previous = new HashSet<>(objects.keySet());
        objects.clear();
        list.getItems().forEach(object -> objects.put(object.getMetadata().getName(), object));
        // Objects deleted while the watch was gone never get their DELETED event: this listing is
        // when the benchmark learns of it.
        previous.stream().filter(name -> !objects.containsKey(name)).forEach(name -> deletedNanos.put(name, now));
        lastEventNanos = now;
        watch = collection.watch(new ListOptionsBuilder().withResourceVersion(list.getMetadata().getResourceVersion())
                .withAllowWatchBookmarks(true).withTimeoutSeconds(WATCH_SECONDS).build(), this);
        notifyAll();
    }

    @Override
    public synchronized void eventReceived(Action action, GenericKubernetesResource object) {
        long now = System.nanoTime();
        switch (action) {
            case ADDED, MODIFIED -> objects.put(object.getMetadata().getName(), object);
            case DELETED -> {
                objects.remove(object.getMetadata().getName());
                deletedNanos.put(object.getMetadata().getName(), now);
            }
            default -> {
                return;
            }
        }
        lastEventNanos = now;
        notifyAll();
    }

    @Override
    public synchronized void onClose(WatcherException cause) {
        if (cause.isHttpGone()) {
            Thread.ofVirtual().start(this::listAndWatch);
            return;
        }
        closed = cause;
        notifyAll();
    }

    /**
     * Waits until the objects (by name) satisfy the condition; returns when the event arrived that
     * made them so, in {@link System#nanoTime()}.
     */
    synchronized long await(String what, Predicate<Map<String, GenericKubernetesResource>> condition, long deadlineNanos)
            throws InterruptedException, TimeoutException {
        while (!condition.test(objects)) {
            if (closed != null) {
                throw new IllegalStateException("the benchmark's watch closed while waiting for " + what, closed);
            }
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0) {
                throw new TimeoutException("timed out waiting for " + what);
            }
            wait(Math.max(1, remaining / 1_000_000));
        }
        return lastEventNanos;
    }

    /**
     * When the benchmark saw each deleted object go, by name, in {@link System#nanoTime()}: its
     * DELETED event, or the LIST after an expired watch that no longer had it.
     */
    synchronized Map<String, Long> deletions() {
        return Map.copyOf(deletedNanos);
    }

    @Override
    public synchronized void close() {
        stopped = true;
        watch.close();
    }
}
