package io.kopf4j.internal.watching;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The objects inside a server-side selection that the operator knows of, between the watcher and
 * the reactor's queues of one resource in one namespace. It lets every event through, and adds the
 * one that the API server cannot send: an object known before that is missing from a listing (it
 * left the selection, or was deleted, while no watch was open: after a {@code 410 Gone}, or while
 * the operator was paused) gets a {@code DELETED} event with only its identity, which the reactor
 * confirms with a read as it confirms every {@code DELETED} of a selected resource. Without it, such
 * an object would keep its finalizer and its memory forever. It outlives the watchers: a resume
 * makes a new watcher, whose listing is compared with what the old one saw.
 *
 * <p>It holds the identity (name, namespace, uid) of each selected object only: a selection is
 * chosen to be small.
 *
 * <pre>{@code
 * SelectedObjects selected = new SelectedObjects(queues::dispatch, () -> threads.start("sweep", sweep));
 * new ResourceWatcher(client, pods, "default", selection, selected, settings, metrics);
 * }</pre>
 */
public final class SelectedObjects implements ResourceWatcher.ListingAware {
    private final Consumer<WatchEvent> downstream;
    private final Runnable afterFirstListing;
    private boolean listedOnce;
    private final Map<String, Map<String, Object>> known = new HashMap<>();
    /** The keys of the listing under way, or null between listings. */
    private Set<String> listed;

    /**
     * @param afterFirstListing run once, when the first listing has ended (a watcher runs only
     *                          while the operator is not paused): the {@link SelectionSweep}
     */
    public SelectedObjects(Consumer<WatchEvent> downstream, Runnable afterFirstListing) {
        this.downstream = downstream;
        this.afterFirstListing = afterFirstListing;
    }

    @Override
    public synchronized void listingStarted() {
        listed = new HashSet<>();
    }

    @Override
    public void accept(WatchEvent event) {
        String key = event.key();
        if (key != null) {
            synchronized (this) {
                if (event.isDeleted()) {
                    known.remove(key);
                } else {
                    known.put(key, identity(event));
                    if (event.isListing() && listed != null) {
                        listed.add(key);
                    }
                }
            }
        }
        downstream.accept(event);
    }

    @Override
    public void listingEnded() {
        List<Map<String, Object>> missing;
        synchronized (this) {
            Set<String> seen = listed;
            listed = null;
            if (seen == null) {
                return;
            }
            missing = known.entrySet().stream().filter(entry -> !seen.contains(entry.getKey())).map(Map.Entry::getValue)
                    .toList();
            known.keySet().retainAll(seen);
        }
        missing.forEach(identity -> downstream.accept(new WatchEvent("DELETED", copy(identity))));
        boolean first;
        synchronized (this) {
            first = !listedOnce;
            listedOnce = true;
        }
        if (first) {
            afterFirstListing.run();
        }
    }

    /** How many selected objects are known: for tests and metrics. */
    public synchronized int size() {
        return known.size();
    }

    private static Map<String, Object> identity(WatchEvent event) {
        return identity(event.object().get("apiVersion"), event.object().get("kind"), (Map<?, ?>) event.object().get("metadata"));
    }

    /** An object's identity as a body: its apiVersion, kind, name, namespace and uid, nothing else. */
    static Map<String, Object> identity(Object apiVersion, Object kind, Map<?, ?> fullMetadata) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        for (String field : List.of("name", "namespace", "uid")) {
            if (fullMetadata != null && fullMetadata.get(field) != null) {
                metadata.put(field, fullMetadata.get(field));
            }
        }
        Map<String, Object> identity = new LinkedHashMap<>();
        identity.put("apiVersion", apiVersion);
        identity.put("kind", kind);
        identity.put("metadata", metadata);
        return identity;
    }

    /** A mutable copy: the reactor adds to the bodies it gets. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> copy(Map<String, Object> identity) {
        Map<String, Object> body = new LinkedHashMap<>(identity);
        body.put("metadata", new LinkedHashMap<>((Map<String, Object>) identity.get("metadata")));
        return body;
    }
}
