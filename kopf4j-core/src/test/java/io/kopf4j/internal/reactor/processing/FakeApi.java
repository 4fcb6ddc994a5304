package io.kopf4j.internal.reactor.processing;

import io.kopf4j.Patch;
import io.kopf4j.Resource;
import io.kopf4j.internal.clients.ObjectPatching;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.watching.WatchEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A fake API server of one object, for processing's tests: applies merge patches to it in memory as
 * the API server would, and records them.
 *
 * <pre>{@code
 * FakeApi api = new FakeApi();
 * api.object = new LinkedHashMap<>(Map.of("metadata", ...));
 * processor.process(api.event("ADDED"), Pressure.NONE, null);
 * }</pre>
 */
final class FakeApi implements ObjectPatching {
    final List<Map<String, Object>> patches = new ArrayList<>();
    Map<String, Object> object;
    int version = 1;
    /** As the real patcher with a status subresource: the status in its own PATCH, before the body. */
    boolean statusFirst;
    /** The object between the two PATCHes, when the status went first. */
    Map<String, Object> intermediate;
    /** As the real patcher: functions applied to a stale body fail their resourceVersion test (422). */
    boolean conflictOnStaleFunctions;

    @Override
    public Applied apply(Resource resource, Map<String, Object> body, Patch patch, Set<String> resultsOf,
                         org.slf4j.Logger logger) {
        if (conflictOnStaleFunctions && patch.toMap().isEmpty() && !patch.fns().isEmpty()
                && !versionOf(body).equals(versionOf(object))) {
            return new Applied(null, new ArrayList<>(patch.fns()));
        }
        patches.add(patch.toMap());
        Map<String, Object> rest = new LinkedHashMap<>(patch.toMap());
        List<String> superseded = new ArrayList<>();
        if (statusFirst && rest.containsKey("status") && rest.size() > 1) {
            merge(object, Map.of("status", rest.remove("status")));
            superseded.add(bumpVersion());
            intermediate = Json.deepCopy(object);
        }
        merge(object, rest);
        patch.fns().forEach(fn -> fn.accept(object));
        return new Applied(bumpVersion(), List.of(), superseded);
    }

    @SuppressWarnings("unchecked")
    private static String versionOf(Map<String, Object> body) {
        return String.valueOf(((Map<String, Object>) body.get("metadata")).get("resourceVersion"));
    }

    @SuppressWarnings("unchecked")
    private String bumpVersion() {
        ((Map<String, Object>) object.get("metadata")).put("resourceVersion", String.valueOf(++version));
        return String.valueOf(version);
    }

    @SuppressWarnings("unchecked")
    private static void merge(Map<String, Object> target, Map<String, Object> patch) {
        patch.forEach((key, value) -> {
            if (value instanceof Map<?, ?> nested && target.get(key) instanceof Map<?, ?> existing) {
                merge((Map<String, Object>) existing, (Map<String, Object>) nested);
            } else if (value == null) {
                target.remove(key);
            } else {
                target.put(key, Json.deepCopy(value));
            }
        });
    }

    WatchEvent event(String type) {
        return new WatchEvent(type, Json.deepCopy(object));
    }
}
