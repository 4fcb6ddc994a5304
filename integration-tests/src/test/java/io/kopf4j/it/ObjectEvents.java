package io.kopf4j.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the tests of label filters and selections share: the events their event handlers saw, one
 * line each ({@code "namespace/name uid TYPE ..."}), the merge patch of an {@code app} label, and
 * the operator's count of the objects it remembers.
 *
 * <pre>{@code
 * EVENTS.add(namespace + "/" + name + " " + uid + " " + type);
 * assertThat(ObjectEvents.typesOf(EVENTS, "ns/ex", null)).startsWith("ADDED");
 * }</pre>
 */
final class ObjectEvents {
    private ObjectEvents() {
    }

    /** The types of the events seen of an object ("namespace/name"), of one uid if given, in order. */
    static List<String> typesOf(List<String> events, String object, String uid) {
        return events.stream().map(line -> line.split(" "))
                .filter(line -> line[0].equals(object) && (uid == null || line[1].equals(uid)))
                .map(line -> line[2]).toList();
    }

    /** A merge patch that sets the {@code app} label, or removes it if null. */
    static Map<String, Object> appLabel(String app) {
        Map<String, Object> labels = new HashMap<>();
        labels.put("app", app);
        return Map.of("metadata", Map.of("labels", labels));
    }

    /** The operator's {@code kopf4j_objects} gauge: the objects it remembers (seen and not deleted or forgotten). */
    static double objectsRemembered(URI metrics) throws Exception {
        String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(metrics).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return text.lines().filter(line -> line.startsWith("kopf4j_objects "))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.indexOf(' ') + 1))).findFirst().orElseThrow();
    }
}
