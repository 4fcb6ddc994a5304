package io.kopf4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One kopfexample as the floor operator handles it: its newest body from the watch, handled on a
 * virtual thread of its own, never two at once. A body that arrives while one is handled replaces
 * any other still waiting: every decision is taken from the newest state, so the bodies in between
 * add nothing. The writes, and nothing else:
 *
 * <ul>
 *   <li>new, without the finalizer: a JSON Patch adding it, then a merge PATCH of
 *       {@code /status} with {@code {"create": {"generation": spec.generation}}};</li>
 *   <li>{@code spec.generation} differs from the last one handled: a merge PATCH of
 *       {@code /status} with {@code {"update": {"generation": spec.generation}}};</li>
 *   <li>deleted, with the finalizer: a JSON Patch removing it.</li>
 * </ul>
 *
 * <p>The bodies that the floor's own patches cause arrive later, some of them older than what it has
 * written already; it remembers what it wrote, so that they cause no second write.
 *
 * <pre>{@code
 * FloorObject object = new FloorObject(api, "/apis/kopf.dev/v1/namespaces/bench/kopfexamples");
 * object.offer(body);   // from the watch
 * }</pre>
 */
final class FloorObject {
    static final String FINALIZER = "floor.kopf4j.io/finalizer";

    private final FloorApi api;
    private final String collection;
    private JsonNode pending;        // guarded by this
    private boolean handling;        // guarded by this
    // Touched only by the thread handling this object, one after the other:
    private boolean finalizerAdded;
    private boolean finalizerRemoved;
    private JsonNode handledGeneration;

    FloorObject(FloorApi api, String collection) {
        this.api = api;
        this.collection = collection;
    }

    /** Takes the newest body; handles it at once unless this object is being handled already. */
    synchronized void offer(JsonNode body) {
        pending = body;
        if (!handling) {
            handling = true;
            Thread.ofVirtual().name("floor-" + body.path("metadata").path("name").asText()).start(this::handleAll);
        }
    }

    private void handleAll() {
        while (true) {
            JsonNode body;
            synchronized (this) {
                body = pending;
                pending = null;
                if (body == null) {
                    handling = false;
                    return;
                }
            }
            try {
                handle(body);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void handle(JsonNode body) throws InterruptedException {
        JsonNode metadata = body.path("metadata");
        String path = collection + "/" + metadata.path("name").asText();
        List<String> finalizers = new ArrayList<>();
        metadata.path("finalizers").forEach(finalizer -> finalizers.add(finalizer.asText()));
        if (metadata.hasNonNull("deletionTimestamp")) {
            if (finalizers.contains(FINALIZER) && !finalizerRemoved) {
                finalizerRemoved = api.patch(path, FloorApi.JSON_PATCH, removal(finalizers));
            }
            return;
        }
        if (!finalizers.contains(FINALIZER) && !finalizerAdded) {
            finalizerAdded = api.patch(path, FloorApi.JSON_PATCH, addition(metadata, finalizers));
            if (!finalizerAdded) {
                return;   // the object changed since this body: its newer body comes with the next event
            }
        }
        JsonNode generation = body.path("spec").path("generation");
        JsonNode handled = handledGeneration != null ? handledGeneration : generationInStatus(body.path("status"));
        String result = handled == null ? "create" : handled.equals(generation) ? null : "update";
        if (result != null && api.patch(path + "/status", FloorApi.MERGE_PATCH,
                Map.of("status", Map.of(result, Map.of("generation", generation))))) {
            handledGeneration = generation;
        }
    }

    /** The generation of the last result written, by this process or an earlier one; null if none. */
    private static JsonNode generationInStatus(JsonNode status) {
        for (String result : List.of("update", "create")) {
            if (status.path(result).has("generation")) {
                return status.path(result).path("generation");
            }
        }
        return null;
    }

    /**
     * Adds the finalizer if the finalizers are still those seen. A {@code test} of a missing path
     * fails, so without finalizers the resourceVersion is tested instead.
     */
    private static List<Map<String, Object>> addition(JsonNode metadata, List<String> finalizers) {
        if (finalizers.isEmpty()) {
            return List.of(
                    Map.of("op", "test", "path", "/metadata/resourceVersion", "value", metadata.path("resourceVersion").asText()),
                    Map.of("op", "add", "path", "/metadata/finalizers", "value", List.of(FINALIZER)));
        }
        return List.of(
                Map.of("op", "test", "path", "/metadata/finalizers", "value", finalizers),
                Map.of("op", "add", "path", "/metadata/finalizers/-", "value", FINALIZER));
    }

    private static List<Map<String, Object>> removal(List<String> finalizers) {
        String path = "/metadata/finalizers/" + finalizers.indexOf(FINALIZER);
        return List.of(Map.of("op", "test", "path", path, "value", FINALIZER), Map.of("op", "remove", "path", path));
    }
}
