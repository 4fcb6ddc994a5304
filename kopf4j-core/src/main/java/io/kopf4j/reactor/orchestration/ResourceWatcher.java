package io.kopf4j.reactor.orchestration;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kopf4j.OperatorSettings;
import io.kopf4j.clients.ApiErrors;
import io.kopf4j.clients.Resources;
import io.kopf4j.runtime.Metrics;
import io.kopf4j.structs.Json;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import io.kopf4j.reactor.queueing.WatchEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * List + watch of one resource in one namespace (or cluster-wide): a paginated initial listing
 * whose objects are delivered as events of type null, then a watch from the listing's
 * resourceVersion with bookmarks. fabric8 reconnects a broken watch from the last seen version;
 * a {@code 410 Gone} (the version expired) makes this watcher list again.
 */
public final class ResourceWatcher implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ResourceWatcher.class);
    private static final Duration ERROR_BACKOFF = Duration.ofSeconds(1);
    /**
     * How fabric8 (7.8, AbstractWatchManager.watchEnded) reports a watch that the server closed
     * cleanly within 2 s without a single message: as a 410 of its own making. The API server does
     * that when it drops a lagging watcher under load, or at a short {@code serverTimeout}; a
     * version that really expired comes as the server's own 410 event, with another message.
     */
    private static final String SILENT_CLOSE = "resourceVersion too old";
    /** Silent closes in a row after which the version is taken as expired after all (a proxy's bare close). */
    private static final int SILENT_CLOSES_BEFORE_LISTING = 3;

    private final KubernetesClient client;
    private final io.kopf4j.Resource resource;
    private final String namespace;
    private final Consumer<WatchEvent> sink;
    private final OperatorSettings.Watching settings;
    private final Duration inactivityTimeout;
    private final long pageSize;
    private final String labelSelector;
    private final Predicate<Map<String, Object>> strays;
    private final Metrics metrics;
    private final CountDownLatch listed = new CountDownLatch(1);
    private volatile Watch watch;
    private volatile boolean stopped;
    private volatile long lastActivity;
    private volatile String lastVersion;
    /** Watches in a row that ended silently at once (no event, not even a bookmark). */
    private volatile int silentCloses;

    /**
     * @param labelSelector a server-side label selector ({@code app=web,!legacy}), or null
     * @param strays with a label selector: which objects outside it are delivered from the first
     *               listing all the same (those that left it while the operator was down, still
     *               holding its finalizer); null for none
     */
    public ResourceWatcher(KubernetesClient client, io.kopf4j.Resource resource, String namespace,
                           Consumer<WatchEvent> sink, OperatorSettings.Watching settings, String labelSelector,
                           Predicate<Map<String, Object>> strays, Metrics metrics) {
        this.client = client;
        this.resource = resource;
        this.namespace = namespace;
        this.sink = sink;
        this.settings = settings;
        this.inactivityTimeout = settings.inactivityTimeout;
        this.pageSize = settings.listPageSize;
        this.labelSelector = labelSelector;
        this.strays = strays;
        this.metrics = metrics;
    }

    /** Counts down when the first full listing has been delivered. */
    public CountDownLatch listed() {
        return listed;
    }

    public String describe() {
        return resource + (namespace == null ? " cluster-wide" : " in " + namespace)
                + (labelSelector == null ? "" : " with labels " + labelSelector);
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                boolean findStrays = listed.getCount() > 0 && labelSelector != null && strays != null;
                java.util.Set<String> selected = new java.util.HashSet<>();
                String version = listAll(labelSelector, item -> {
                    if (findStrays) {
                        selected.add(item.getMetadata().getUid());
                    }
                    return true;
                });
                if (findStrays) {
                    listStrays(selected);
                }
                listed.countDown();
                while (version != null && !stopped) {
                    version = watchFrom(version);
                    Thread.sleep(settings.reconnectBackoff);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (KubernetesClientException | WatcherException e) {
                if (stopped) {
                    return;
                }
                metrics.watchRestart(resource, "error");
                LOG.error("Watching {} failed, retrying in {} s: {}", describe(), ERROR_BACKOFF.toSeconds(),
                        ApiErrors.summary(e, client.getMasterUrl().toString()));
                LOG.debug("The failed watch of {}:", describe(), e);
                try {
                    Thread.sleep(ERROR_BACKOFF);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    public void stop() {
        stopped = true;
        Watch current = watch;
        if (current != null) {
            current.close();
        }
    }

    private FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> collection() {
        return Resources.collection(client, resource, namespace);
    }

    /**
     * Objects that left the label selector while the operator was down are never listed or watched
     * with it; those that still hold what only the operator removes (its finalizer) are delivered once,
     * so that their processing releases it, as Kopf (which lists without selectors) does.
     */
    private void listStrays(java.util.Set<String> selected) {
        listAll(null, item -> !selected.contains(item.getMetadata().getUid()) && strays.test(Json.toMap(item)));
    }

    /** Lists page by page, delivering the items accepted; returns the listing's resourceVersion. */
    private String listAll(String selector, Predicate<GenericKubernetesResource> accepted) {
        String token = null;
        String version;
        do {
            String continueToken = token;
            long started = System.nanoTime();
            GenericKubernetesResourceList page = collection().list(new ListOptionsBuilder()
                    .withLimit(pageSize).withContinue(continueToken).withLabelSelector(selector).build());
            metrics.apiRequest("LIST", 200, Duration.ofNanos(System.nanoTime() - started));
            for (GenericKubernetesResource item : page.getItems()) {
                if (accepted.test(item)) {
                    deliver(null, item);
                }
            }
            version = page.getMetadata().getResourceVersion();
            token = page.getMetadata().getContinue();
        } while (token != null && !token.isEmpty() && !stopped);
        return version;
    }

    /**
     * Blocks until the watch ends. Returns the version to watch from again (after a silent stream),
     * or null to list again (410 Gone: the version expired); throws on other failures.
     */
    private String watchFrom(String version) throws InterruptedException, WatcherException {
        CompletableFuture<WatcherException> closed = new CompletableFuture<>();
        lastActivity = System.nanoTime();
        lastVersion = version;
        ListOptions options = new ListOptionsBuilder()
                .withResourceVersion(version)
                .withAllowWatchBookmarks(true)
                .withLabelSelector(labelSelector)
                .withTimeoutSeconds(settings.serverTimeout == null ? null : settings.serverTimeout.toSeconds())
                .build();
        watch = collection().watch(options, new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource object) {
                lastActivity = System.nanoTime();
                silentCloses = 0;
                if (object != null && object.getMetadata() != null && object.getMetadata().getResourceVersion() != null) {
                    lastVersion = object.getMetadata().getResourceVersion();
                }
                if (action != Action.BOOKMARK && action != Action.ERROR) {
                    deliver(action.name(), object);
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                closed.complete(cause);
            }

            @Override
            public void onClose() {
                closed.complete(null);
            }
        });
        if (stopped) {
            watch.close();
        }
        long clientDeadline = settings.clientTimeout == null ? Long.MAX_VALUE : System.nanoTime() + settings.clientTimeout.toNanos();
        try {
            while (true) {
                if (System.nanoTime() >= clientDeadline) {
                    LOG.debug("Watching {}: the client-side timeout of {} s passed; resuming", describe(),
                            settings.clientTimeout.toSeconds());
                    metrics.watchRestart(resource, "timeout");
                    watch.close();
                    return lastVersion;
                }
                long silentFor = System.nanoTime() - lastActivity;
                long left = Math.min(inactivityTimeout.toNanos() - silentFor, clientDeadline - System.nanoTime());
                if (inactivityTimeout.toNanos() - silentFor <= 0) {
                    LOG.debug("Watching {}: nothing came for {} s, not even a bookmark; reconnecting", describe(),
                            inactivityTimeout.toSeconds());
                    metrics.watchRestart(resource, "inactivity");
                    watch.close();
                    return lastVersion;
                }
                try {
                    WatcherException cause = closed.get(left, TimeUnit.NANOSECONDS);
                    if (cause != null && cause.isHttpGone() && SILENT_CLOSE.equals(cause.getMessage())
                            && ++silentCloses < SILENT_CLOSES_BEFORE_LISTING) {
                        // A re-list would deliver every object again, as stale as the listing, and cost the
                        // API server most under the very load that made it drop the watch: watch on instead.
                        LOG.debug("Watching {}: the stream ended at once without a message; watching again from {}",
                                describe(), lastVersion);
                        metrics.watchRestart(resource, "silent-close");
                        return lastVersion;
                    }
                    if (cause != null && cause.isHttpGone()) {
                        silentCloses = 0;
                        LOG.debug("Watching {}: the resourceVersion expired (410 Gone); listing again", describe());
                        metrics.watchRestart(resource, "gone");
                        return null;
                    } else if (cause != null) {
                        throw cause;
                    }
                    return stopped ? null : lastVersion;
                } catch (TimeoutException quiet) {
                    // Check the silence again: events may have come meanwhile.
                }
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private void deliver(String type, GenericKubernetesResource item) {
        Map<String, Object> body = Json.toMap(item);
        if ("DELETED".equals(type) && labelSelector != null) {
            // The API server reports an object whose labels left the selector as DELETED, with its
            // last matching content. If it still exists, its handlers must see that it no longer
            // matches them (to release the finalizer, for one), as without a server-side selector.
            GenericKubernetesResource current = Resources.object(client, resource, body).get();
            if (current != null) {
                body = Json.toMap(current);
                type = "MODIFIED";
            }
        }
        // List items of built-in resources come without apiVersion and kind; handlers expect them.
        body.putIfAbsent("apiVersion", resource.apiVersion());
        body.putIfAbsent("kind", resource.kind());
        metrics.watchEvent(resource, type);
        sink.accept(new WatchEvent(type, body));
    }

}
