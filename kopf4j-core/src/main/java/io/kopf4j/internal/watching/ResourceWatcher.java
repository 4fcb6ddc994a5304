package io.kopf4j.internal.watching;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.clients.ApiErrors;
import io.kopf4j.internal.clients.ApiRequest;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.clients.ApiStream;
import io.kopf4j.internal.clients.UnreadableObject;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.selection.Selection;
import io.kopf4j.internal.structs.Json;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * List + watch of one resource in one namespace (or cluster-wide): a paginated initial listing
 * whose objects are delivered as events of type null, then a watch from the listing's
 * resourceVersion with bookmarks. A stream that the server ends (at its {@code timeoutSeconds}, or
 * dropping a watcher that lags behind) is watched again from the last version seen, and so is one
 * that cannot reach the server or is throttled (429, after its Retry-After); a {@code 410 Gone}
 * (the version expired) makes this watcher list again. Each page of a listing is retried as Kopf
 * retries requests ({@code settings.networking.errorBackoffs}, Retry-After honoured), so that a
 * listing of many pages gets through a storm of 429s and 5xx instead of starting over at every one.
 *
 * <p>The requests go through {@link ApiRequest} and {@link ApiStream} rather than fabric8's
 * list and watch DSL: each object is parsed once, from the API server's bytes into the map that
 * the handlers get, instead of into fabric8's {@code GenericKubernetesResource} and from it into
 * a map, and fabric8's deserializer does not load the model classes of all its model jars.
 *
 * <p>As Kopf, it lists and watches every object of the resource unless given a {@link Selection}:
 * the handlers' filters are checked in the operator. With a selection (the user's opt-in
 * {@code settings.watching.labelSelectors}, or a private cache of objects this operator marks), the
 * API server sends only the objects inside it, and an object's way in or out of it looks like a
 * creation or a deletion: one relabelled into it arrives as {@code ADDED}, one that leaves it as
 * {@code DELETED} with its last state inside, and one that leaves while the watch is down is merely
 * missing from the next listing. A sink that must tell these from the real thing (the reactor's:
 * {@link SelectedObjects}) implements {@link ListingAware} to learn where each listing starts and ends.
 */
public final class ResourceWatcher implements Runnable {
    /**
     * A sink told where each listing starts and ends, so that it can tell which objects it knew of
     * were missing from it. Both are called on the watcher's thread, around the listing's events.
     */
    public interface ListingAware extends Consumer<WatchEvent> {
        void listingStarted();

        void listingEnded();
    }

    private static final Logger LOG = LoggerFactory.getLogger(ResourceWatcher.class);
    private static final Duration ERROR_BACKOFF = Duration.ofSeconds(1);
    private static final int GONE = 410;
    private static final int TOO_MANY_REQUESTS = 429;

    private final KubernetesClient client;
    private final io.kopf4j.Resource resource;
    private final String namespace;
    private final Consumer<WatchEvent> sink;
    /** The objects the API server sends, or null for every object. */
    private final Selection selection;
    private final OperatorSettings.Watching settings;
    private final ApiRetries retries;
    private final Duration inactivityTimeout;
    private final long pageSize;
    private final Metrics metrics;
    private final CountDownLatch listed = new CountDownLatch(1);
    private volatile ApiStream stream;
    private volatile Thread thread;
    private volatile boolean stopped;
    private volatile long lastActivity;
    private volatile String lastVersion;
    private volatile Throwable died;
    /** The versions of unreadable objects already reported: a re-list or a resumed watch reports each once. */
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    public ResourceWatcher(KubernetesClient client, io.kopf4j.Resource resource, String namespace,
                           Consumer<WatchEvent> sink, OperatorSettings settings, Metrics metrics) {
        this(client, resource, namespace, (Selection) null, sink, settings, metrics);
    }

    /**
     * A watcher of the objects of a selection only: a resource the user selected on the server
     * side, or a private cache of objects that this operator marks itself (its children).
     *
     * @param selection the API server's label and field selectors, or null for every object
     */
    public ResourceWatcher(KubernetesClient client, io.kopf4j.Resource resource, String namespace, Selection selection,
                           Consumer<WatchEvent> sink, OperatorSettings settings, Metrics metrics) {
        this.selection = selection;
        this.client = client;
        this.resource = resource;
        this.namespace = namespace;
        this.sink = sink;
        this.settings = settings.watching;
        this.retries = ApiRetries.of(settings);
        this.inactivityTimeout = settings.watching.inactivityTimeout;
        this.pageSize = settings.watching.listPageSize;
        this.metrics = metrics;
    }

    /** Counts down when the first full listing has been delivered. */
    public CountDownLatch listed() {
        return listed;
    }

    public String describe() {
        return resource + (namespace == null ? " cluster-wide" : " in " + namespace);
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

    /**
     * Lists and watches until stopped. Nothing but a stop ends it: a failed request is retried after
     * its backoff, and so is anything unexpected (a bug, a stack overflow), with its trace logged, so
     * that a watcher never dies silently; if its thread ends otherwise all the same (out of memory),
     * {@link #died()} says why, and the operator's liveness fails with it.
     */
    @Override
    public void run() {
        thread = Thread.currentThread();
        try {
            watchUntilStopped();
        } catch (Throwable fatal) {
            died = fatal;
            LOG.error("The watcher of {} has died: {}", describe(), fatal.toString(), fatal);
            throw fatal;
        }
    }

    /** Why this watcher's thread ended other than by a stop, or null while it runs (or after a stop). */
    public Throwable died() {
        return died;
    }

    private void watchUntilStopped() {
        while (!stopped) {
            try {
                String version = listAll();
                listed.countDown();
                while (version != null && !stopped) {
                    version = watchFrom(version);
                    Thread.sleep(settings.reconnectBackoff);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (OutOfMemoryError e) {
                throw e;
            } catch (KubernetesClientException e) {
                if (stopped || !backOff(e)) {
                    return;
                }
            } catch (RuntimeException | Error unexpected) {
                if (stopped) {
                    return;
                }
                metrics.watchRestart(resource, "error");
                LOG.error("Watching {} failed unexpectedly, retrying in {} s: {}", describe(), ERROR_BACKOFF.toSeconds(),
                        unexpected, unexpected);
                if (!pause(ERROR_BACKOFF)) {
                    return;
                }
            }
        }
    }

    /**
     * Reports a failed request of the listing or the watch, and waits before it is retried: a 429's
     * Retry-After if longer. False if interrupted meanwhile (stopping).
     */
    private boolean backOff(KubernetesClientException e) {
        Duration delay = retries.delayFor(e, ERROR_BACKOFF);
        metrics.watchRestart(resource, "error");
        LOG.error("Watching {} failed, retrying in {} s: {}", describe(), delay.toSeconds(), ApiErrors.summary(e, client.getMasterUrl().toString()));
        LOG.debug("The failed watch of {}:", describe(), e);
        return pause(delay);
    }

    private static boolean pause(Duration delay) {
        try {
            Thread.sleep(delay);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Stops for good: the resource or namespace is not served any more, or the operator stops. */
    public void stop() {
        LOG.debug("Stopping the watch-stream for {}.", stream());
        halt();
    }

    /** Closes the stream, and cuts short a listing's request or its wait to be retried. */
    private void halt() {
        stopped = true;
        ApiStream current = stream;
        if (current != null) {
            current.close();
        }
        Thread running = thread;
        if (running != null) {
            running.interrupt();
        }
    }

    private ApiRequest collection() {
        return ApiRequest.collection(client, resource, namespace)
                .query("labelSelector", selection == null ? null : selection.labelQuery())
                .query("fieldSelector", selection == null ? null : selection.fieldQuery());
    }

    /** Lists page by page, delivering every readable item; returns the listing's resourceVersion. */
    private String listAll() {
        String token = null;
        String version;
        if (sink instanceof ListingAware aware) {
            aware.listingStarted();
        }
        do {
            long started = System.nanoTime();
            ApiRequest request = collection().query("limit", String.valueOf(pageSize)).query("continue", token);
            ApiRequest.Listing page = retries.list(request, LOG);
            metrics.apiRequest("LIST", 200, Duration.ofNanos(System.nanoTime() - started));
            page.items().forEach(item -> deliver(null, item));
            page.unreadable().forEach(this::skip);
            version = page.resourceVersion();
            token = page.continueToken();
        } while (token != null && !stopped);
        if (sink instanceof ListingAware aware && !stopped) {
            aware.listingEnded();
        }
        return version;
    }

    /**
     * An object that cannot be read is left out with one error naming it (once per version): every
     * other object of the resource is served. Its deletion still goes on, with only its identity, so
     * that the operator forgets it (its memory, its daemons, its place in the indexes).
     */
    private void skip(UnreadableObject object) {
        metrics.unreadableObject(resource);
        String version = object.resourceVersion();
        boolean deleted = "DELETED".equals(object.type());
        if (version == null || reported.add(object.uid() + "@" + version)) {
            ObjectLogger.local(object.body()).error(deleted ? "The deleted object cannot be read{}; it is forgotten by its"
                    + " identity alone: {}" : "The object cannot be read and is skipped{}: {}",
                    version == null ? "" : " at its version " + version, object.reason());
        }
        if (version != null && object.type() != null) {
            lastVersion = version;   // a resumed watch starts after it, not at it again
        }
        if (deleted) {
            deliver(object.type(), object.body());
        }
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
                .query("timeoutSeconds", settings.serverTimeout == null ? null : String.valueOf(settings.serverTimeout.toSeconds()))
                .stream(this::received, this::skip);
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
                if (ApiErrors.unreachable(failure) || failure.getCode() == TOO_MANY_REQUESTS) {
                    // The version is still good (as Kopf and fabric8 resume it; client-go too after a 429):
                    // during an outage, or throttled, the watch is tried again, not the far costlier listing,
                    // and the API server says with a 410 if it must list again.
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
        // List items of built-in resources come without apiVersion and kind; handlers expect them.
        body.putIfAbsent("apiVersion", resource.apiVersion());
        body.putIfAbsent("kind", resource.kind());
        metrics.watchEvent(resource, type);
        sink.accept(new WatchEvent(type, body));
    }
}
