package io.kopf4j.internal.watching;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.clients.ApiRequest;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.selection.Selection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Finds, once after the operator's first listing of a selected resource, the objects that left the
 * selection while no operator watched (it was down, or not yet deployed with this selection) and
 * still carry its finalizer: the watch will never show them, and their deletion would hang. It
 * lists the whole resource once, page by page and metadata only where the selection is on metadata
 * (names, labels and finalizers; no spec, no status), keeps nothing of the pages, and gives each
 * such object a {@code DELETED} event of its identity, which the reactor confirms with a read and
 * then releases as an object outside the selection ({@code SelectionExits}). Turned off by
 * {@code settings.watching.sweepAtStart = false} where even one listing of the resource at the
 * start costs too much.
 *
 * <pre>{@code
 * threads.start("sweep", new SelectionSweep(client, pods, "default", selection, settings, queue));
 * }</pre>
 */
public final class SelectionSweep implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(SelectionSweep.class);

    private final KubernetesClient client;
    private final Resource resource;
    private final String namespace;
    private final Selection selection;
    private final String finalizer;
    private final long pageSize;
    private final ApiRetries retries;
    private final Consumer<WatchEvent> sink;

    public SelectionSweep(KubernetesClient client, Resource resource, String namespace, Selection selection,
                          OperatorSettings settings, Consumer<WatchEvent> sink) {
        this.client = client;
        this.resource = resource;
        this.namespace = namespace;
        this.selection = selection;
        this.finalizer = settings.persistence.finalizer;
        this.pageSize = settings.watching.listPageSize;
        this.retries = ApiRetries.of(settings);
        this.sink = sink;
    }

    @Override
    public void run() {
        try {
            int found = 0;
            int listed = 0;
            String token = null;
            do {
                ApiRequest request = ApiRequest.collection(client, resource, namespace);
                request = (selection.onMetadata() ? request.metadataOnly() : request)
                        .query("limit", String.valueOf(pageSize)).query("continue", token);
                ApiRequest.Listing page = retries.list(request, LOG);
                for (Map<String, Object> item : page.items()) {
                    listed++;
                    if (holdsFinalizer(item) && !selection.matches(item)) {
                        found++;
                        sink.accept(new WatchEvent("DELETED", SelectedObjects.identity(resource.apiVersion(), resource.kind(),
                                (Map<?, ?>) item.get("metadata"))));
                    }
                }
                token = page.continueToken();
            } while (token != null && !Thread.currentThread().isInterrupted());
            LOG.atLevel(found > 0 ? Level.INFO : Level.DEBUG).log("Swept {} {}{} for objects outside the selection ({})"
                    + " that hold the operator's finalizer: {} found, to be released.", listed, resource.plural(),
                    namespace == null ? "" : " in '" + namespace + "'", selection, found);
        } catch (RuntimeException e) {
            LOG.error("The sweep of the {} outside the selection ({}) has failed; objects that left it while the operator"
                    + " was down may keep its finalizer: {}", resource.plural(), selection, e.toString());
        }
    }

    private boolean holdsFinalizer(Map<String, Object> item) {
        return item.get("metadata") instanceof Map<?, ?> metadata && metadata.get("finalizers") instanceof List<?> finalizers
                && finalizers.contains(finalizer);
    }
}
