package io.kopf4j.reactor;

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
import io.kopf4j.clients.Resources;
import io.kopf4j.structs.Json;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * List + watch of one resource in one namespace (or cluster-wide): a paginated initial listing
 * whose objects are delivered as events of type null, then a watch from the listing's
 * resourceVersion with bookmarks. fabric8 reconnects a broken watch from the last seen version;
 * a {@code 410 Gone} (the version expired) makes this watcher list again.
 */
final class ResourceWatcher implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ResourceWatcher.class);
    private static final long PAGE_SIZE = 500;
    private static final Duration ERROR_BACKOFF = Duration.ofSeconds(1);

    private final KubernetesClient client;
    private final io.kopf4j.Resource resource;
    private final String namespace;
    private final Consumer<WatchEvent> sink;
    private final CountDownLatch listed = new CountDownLatch(1);
    private volatile Watch watch;
    private volatile boolean stopped;

    ResourceWatcher(KubernetesClient client, io.kopf4j.Resource resource, String namespace, Consumer<WatchEvent> sink) {
        this.client = client;
        this.resource = resource;
        this.namespace = namespace;
        this.sink = sink;
    }

    /** Counts down when the first full listing has been delivered. */
    CountDownLatch listed() {
        return listed;
    }

    String describe() {
        return resource + (namespace == null ? " cluster-wide" : " in " + namespace);
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                String version = listAll();
                listed.countDown();
                watchFrom(version);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (KubernetesClientException | WatcherException e) {
                if (stopped) {
                    return;
                }
                LOG.error("Watching {} failed, retrying in {} s: {}", describe(), ERROR_BACKOFF.toSeconds(), e.getMessage());
                try {
                    Thread.sleep(ERROR_BACKOFF);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    void stop() {
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

    private String listAll() {
        String token = null;
        String version;
        do {
            GenericKubernetesResourceList page = collection().list(
                    new ListOptionsBuilder().withLimit(PAGE_SIZE).withContinue(token).build());
            for (GenericKubernetesResource item : page.getItems()) {
                deliver(null, item);
            }
            version = page.getMetadata().getResourceVersion();
            token = page.getMetadata().getContinue();
        } while (token != null && !token.isEmpty() && !stopped);
        return version;
    }

    /** Blocks until the watch ends: returns to re-list on 410 Gone, throws on other failures. */
    private void watchFrom(String version) throws InterruptedException, WatcherException {
        CompletableFuture<WatcherException> closed = new CompletableFuture<>();
        ListOptions options = new ListOptionsBuilder()
                .withResourceVersion(version)
                .withAllowWatchBookmarks(true)
                .build();
        watch = collection().watch(options, new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource object) {
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
        try {
            WatcherException cause = closed.get();
            if (cause != null && cause.isHttpGone()) {
                LOG.debug("Watching {}: the resourceVersion expired (410 Gone); listing again", describe());
            } else if (cause != null) {
                throw cause;
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private void deliver(String type, GenericKubernetesResource item) {
        Map<String, Object> body = Json.toMap(item);
        // List items of built-in resources come without apiVersion and kind; handlers expect them.
        body.putIfAbsent("apiVersion", resource.apiVersion());
        body.putIfAbsent("kind", resource.kind());
        sink.accept(new WatchEvent(type, body));
    }
}
