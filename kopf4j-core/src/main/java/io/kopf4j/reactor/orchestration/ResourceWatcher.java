package io.kopf4j.reactor.orchestration;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.clients.ApiErrors;
import io.kopf4j.clients.ApiRequest;
import io.kopf4j.clients.ApiStream;
import io.kopf4j.runtime.Metrics;
import io.kopf4j.structs.Json;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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
 * resourceVersion with bookmarks. A stream that the server ends (at its {@code timeoutSeconds}, or
 * dropping a watcher that lags behind) is watched again from the last version seen; a
 * {@code 410 Gone} (the version expired) makes this watcher list again.
 *
 * <p>The requests go through {@link ApiRequest} and {@link ApiStream} rather than fabric8's
 * list and watch DSL: each object is parsed once, from the API server's bytes into the map that
 * the handlers get, instead of into fabric8's {@code GenericKubernetesResource} and from it into
 * a map, and fabric8's deserializer does not load the model classes of all its model jars.
 */
public final class ResourceWatcher implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ResourceWatcher.class);
    private static final Duration ERROR_BACKOFF = Duration.ofSeconds(1);
    private static final int GONE = 410;

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
    private volatile ApiStream stream;
    private volatile boolean stopped;
    private volatile long lastActivity;
    private volatile String lastVersion;

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

    /** The stream as Kopf's lines name it: {@code kopfexamples.v1.kopf.dev in 'default'}, or {@code ... cluster-wide}. */
    private String stream() {
        return resource + (namespace == null ? " cluster-wide" : " in " + Json.pythonRepr(namespace));
    }

    /**
     * Kopf's first line of a watcher; if the operator is paused, Kopf's line of why it waits too.
     *
     * @param blockers who holds the operator paused; empty if no one
     */
    public void announce(Collection<String> blockers) {
        LOG.debug("Starting the watch-stream for {}{}.", stream(), blockers.isEmpty() ? "" : " (paused)");
        if (labelSelector != null) {
            LOG.debug("The watch-stream for {} lists and watches only the objects labelled {}.", stream(), labelSelector);
        }
        if (!blockers.isEmpty()) {
            logPaused(blockers);
        }
    }

    /**
     * The operator pauses: the stream closes, this watcher ends (a fresh one lists again on resume).
     *
     * @param blockers who holds the operator paused
     */
    public void pause(Collection<String> blockers) {
        logPaused(blockers);
        halt();
    }

    private void logPaused(Collection<String> blockers) {
        LOG.debug("Pausing the watch-stream for {} (blockers: {}).", stream(), String.join(", ", new TreeSet<>(blockers)));
    }

    /** Kopf's line of a watcher going on after a pause: this fresh watcher takes over from the paused one. */
    public void announceResume() {
        LOG.debug("Resuming the watch-stream for {}.", stream());
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                boolean findStrays = listed.getCount() > 0 && labelSelector != null && strays != null;
                Set<String> selected = new HashSet<>();
                String version = listAll(labelSelector, item -> {
                    if (findStrays) {
                        selected.add(uid(item));
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
            } catch (KubernetesClientException e) {
                if (stopped) {
                    return;
                }
                try {
                    backOff(e);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    /** Reports a failed request of the listing or the watch, and waits before it is retried. */
    private void backOff(KubernetesClientException e) throws InterruptedException {
        metrics.watchRestart(resource, "error");
        LOG.error("Watching {} failed, retrying in {} s: {}", describe(), ERROR_BACKOFF.toSeconds(),
                ApiErrors.summary(e, client.getMasterUrl().toString()));
        LOG.debug("The failed watch of {}:", describe(), e);
        Thread.sleep(ERROR_BACKOFF);
    }

    /** Stops for good: the resource or namespace is not served any more, or the operator stops. */
    public void stop() {
        LOG.debug("Stopping the watch-stream for {}.", stream());
        halt();
    }

    private void halt() {
        stopped = true;
        ApiStream current = stream;
        if (current != null) {
            current.close();
        }
    }

    private ApiRequest collection() {
        return ApiRequest.collection(client, resource, namespace);
    }

    /**
     * Objects that left the label selector while the operator was down are never listed or watched
     * with it; those that still hold what only the operator removes (its finalizer) are delivered once,
     * so that their processing releases it, as Kopf (which lists without selectors) does.
     */
    private void listStrays(Set<String> selected) {
        listAll(null, item -> !selected.contains(uid(item)) && strays.test(item));
    }

    /** Lists page by page, delivering the items accepted; returns the listing's resourceVersion. */
    @SuppressWarnings("unchecked")
    private String listAll(String selector, Predicate<Map<String, Object>> accepted) {
        String token = null;
        String version;
        do {
            long started = System.nanoTime();
            Map<String, Object> page = collection().query("limit", String.valueOf(pageSize)).query("continue", token)
                    .query("labelSelector", selector).get();
            metrics.apiRequest("LIST", 200, Duration.ofNanos(System.nanoTime() - started));
            for (Object item : (List<Object>) page.getOrDefault("items", List.of())) {
                Map<String, Object> body = (Map<String, Object>) item;
                if (accepted.test(body)) {
                    deliver(null, body);
                }
            }
            Map<String, Object> metadata = (Map<String, Object>) page.getOrDefault("metadata", Map.of());
            version = (String) metadata.get("resourceVersion");
            token = (String) metadata.get("continue");
        } while (token != null && !token.isEmpty() && !stopped);
        return version;
    }

    /**
     * Blocks until the watch ends. Returns the version to watch from again (after the stream ended,
     * was closed by a timeout, or could not reach the API server), or null to list again (410 Gone:
     * the version expired); throws on other failures.
     */
    private String watchFrom(String version) throws InterruptedException {
        lastActivity = System.nanoTime();
        lastVersion = version;
        ApiStream current = collection()
                .query("watch", "true")
                .query("resourceVersion", version)
                .query("allowWatchBookmarks", "true")
                .query("labelSelector", labelSelector)
                .query("timeoutSeconds", settings.serverTimeout == null ? null : String.valueOf(settings.serverTimeout.toSeconds()))
                .stream(this::received);
        stream = current;
        if (stopped) {
            current.close();
        }
        long clientDeadline = settings.clientTimeout == null ? Long.MAX_VALUE : System.nanoTime() + settings.clientTimeout.toNanos();
        while (true) {
            if (System.nanoTime() >= clientDeadline) {
                LOG.debug("Watching {}: the client-side timeout of {} s passed; resuming", describe(),
                        settings.clientTimeout.toSeconds());
                metrics.watchRestart(resource, "timeout");
                current.close();
                return lastVersion;
            }
            long quietLeft = inactivityTimeout.toNanos() - (System.nanoTime() - lastActivity);
            if (quietLeft <= 0) {
                LOG.debug("Watch-stream for {} is inactive, reconnecting.", stream());
                metrics.watchRestart(resource, "inactivity");
                current.close();
                return lastVersion;
            }
            try {
                current.ended().get(Math.min(quietLeft, clientDeadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (stopped) {
                    return null;
                }
                LOG.debug("Watching {}: the server ended the stream; watching again from {}", describe(), lastVersion);
                metrics.watchRestart(resource, "ended");
                return lastVersion;
            } catch (ExecutionException ended) {
                if (stopped) {
                    return null;
                }
                // ApiStream ends only with fabric8's exception: an HTTP answer's or an ERROR event's code.
                KubernetesClientException failure = (KubernetesClientException) ended.getCause();
                if (failure.getCode() == GONE) {
                    LOG.debug("Restarting the watch-stream for {}.", stream());
                    metrics.watchRestart(resource, "gone");
                    return null;
                }
                if (ApiErrors.unreachable(failure)) {
                    // The version is still good (as Kopf and fabric8 resume it): during an outage, the
                    // watch is tried again, and the API server says with a 410 if it must list again.
                    backOff(failure);
                    return lastVersion;
                }
                throw failure;
            } catch (TimeoutException quiet) {
                // Check the silence again: events may have come meanwhile.
            }
        }
    }

    /**
     * One line of the stream, on the HTTP client's thread. An error ends the stream: thrown here, it
     * is what {@link ApiStream#ended()} completes with.
     */
    private void received(Map<String, Object> line) {
        lastActivity = System.nanoTime();
        StreamEvent event = StreamEvent.of(line);
        KubernetesClientException failure = event.failure();
        if (failure != null) {
            throw failure;
        }
        if (!event.delivered() && !event.bookmark()) {
            LOG.warn("Ignoring an unsupported event type: {}", Json.pythonRepr(line));
            return;
        }
        if (event.resourceVersion() != null) {
            lastVersion = event.resourceVersion();
        }
        if (event.delivered()) {
            deliver(event.type(), event.object());
        }
    }

    private void deliver(String type, Map<String, Object> body) {
        if ("DELETED".equals(type) && labelSelector != null) {
            // The API server reports an object whose labels left the selector as DELETED, with its
            // last matching content. If it still exists, its handlers must see that it no longer
            // matches them (to release the finalizer, for one), as without a server-side selector.
            Map<String, Object> current = currentOf(body);
            if (current != null) {
                body = current;
                type = "MODIFIED";
            }
        }
        // List items of built-in resources come without apiVersion and kind; handlers expect them.
        body.putIfAbsent("apiVersion", resource.apiVersion());
        body.putIfAbsent("kind", resource.kind());
        metrics.watchEvent(resource, type);
        sink.accept(new WatchEvent(type, body));
    }

    /** The object as it is now, or null if it is gone. */
    private Map<String, Object> currentOf(Map<String, Object> body) {
        Map<?, ?> metadata = (Map<?, ?>) body.get("metadata");
        try {
            return ApiRequest.object(client, resource, (String) metadata.get("namespace"), (String) metadata.get("name")).get();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return null;
            }
            throw e;
        }
    }

    private static String uid(Map<String, Object> body) {
        return (String) ((Map<?, ?>) body.get("metadata")).get("uid");
    }

}
