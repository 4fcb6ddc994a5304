package io.kopf4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The load benchmark's floor: the least an operator must do for the benchmark's kopfexamples, with
 * no framework: one paginated LIST, then one WATCH from its resourceVersion (again from the newest
 * one seen when the server ends it, a new LIST when that one has expired), no GETs, and per object
 * only the writes {@link FloorObject} lists, concurrently. kopf4j's results in the same benchmark
 * are reported as multiples of the floor's.
 *
 * <p>Run by {@link LoadBenchmark}, as its own process, as the kopf4j operator is:
 *
 * <pre>{@code
 * java -cp bench/target/classes:$CLASSPATH io.kopf4j.bench.FloorOperator KUBECONFIG NAMESPACE
 * }</pre>
 */
public final class FloorOperator {
    private static final int PAGE_SIZE = 500;
    private static final Duration WATCH_ERROR_PAUSE = Duration.ofSeconds(1);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final FloorApi api;
    private final String collection;
    private final Map<String, FloorObject> objects = new ConcurrentHashMap<>();

    private FloorOperator(FloorApi api, String namespace) {
        this.api = api;
        this.collection = "/apis/kopf.dev/v1/namespaces/" + namespace + "/kopfexamples";
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: FloorOperator KUBECONFIG NAMESPACE");
            System.exit(2);
        }
        new FloorOperator(FloorApi.fromKubeconfig(Path.of(args[0])), args[1]).serve();
    }

    private void serve() throws InterruptedException {
        String resourceVersion = null;
        while (true) {
            try {
                if (resourceVersion == null) {
                    resourceVersion = list();
                }
                resourceVersion = watch(resourceVersion);
            } catch (IOException | UncheckedIOException e) {
                System.err.println("floor: " + e.getMessage() + "; again in " + WATCH_ERROR_PAUSE.toSeconds() + " s");
                Thread.sleep(WATCH_ERROR_PAUSE);
            }
        }
    }

    /** Lists all objects, page by page, handing each to its handler; returns the list's resourceVersion. */
    private String list() throws IOException, InterruptedException {
        String continuation = "";
        while (true) {
            JsonNode page = api.get(collection + "?limit=" + PAGE_SIZE
                    + (continuation.isEmpty() ? "" : "&continue=" + URLEncoder.encode(continuation, StandardCharsets.UTF_8)));
            page.path("items").forEach(this::dispatch);
            continuation = page.path("metadata").path("continue").asText("");
            if (continuation.isEmpty()) {
                System.err.println("floor: listed, watching from " + page.path("metadata").path("resourceVersion").asText());
                return page.path("metadata").path("resourceVersion").asText();
            }
        }
    }

    /**
     * Watches from a resourceVersion until the server ends the watch; returns the newest
     * resourceVersion seen to watch on from, or null when it has expired (410) and a new LIST is due.
     */
    private String watch(String resourceVersion) throws IOException, InterruptedException {
        String url = collection + "?watch=true&allowWatchBookmarks=true&resourceVersion=" + resourceVersion;
        try (Stream<String> lines = api.watch(url)) {
            Iterator<String> events = lines.iterator();
            while (events.hasNext()) {
                JsonNode event = JSON.readTree(events.next());
                JsonNode object = event.path("object");
                String type = event.path("type").asText();
                if (type.equals("ERROR")) {
                    System.err.println("floor: the watch failed: " + object);
                    return object.path("code").asInt() == 410 ? null : resourceVersion;
                }
                resourceVersion = object.path("metadata").path("resourceVersion").asText();
                if (type.equals("DELETED")) {
                    objects.remove(object.path("metadata").path("uid").asText());
                } else if (!type.equals("BOOKMARK")) {
                    dispatch(object);
                }
            }
        }
        System.err.println("floor: the server ended the watch; watching again from " + resourceVersion);
        return resourceVersion;
    }

    private void dispatch(JsonNode object) {
        objects.computeIfAbsent(object.path("metadata").path("uid").asText(), uid -> new FloorObject(api, collection)).offer(object);
    }
}
