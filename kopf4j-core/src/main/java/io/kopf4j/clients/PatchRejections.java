package io.kopf4j.clients;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What the API server refuses for good in a merge patch, and the handlers' results in it: a result
 * that the resource's schema does not allow (a string where {@code status.create} must be an
 * integer) would otherwise keep the whole write, and with it the progress and the diff-base, from
 * ever being stored, so that its handler would run again at every event.
 *
 * <p>A rejection is permanent when the API server answers with a 4xx about the patch itself: 400,
 * 413, 422 and the like. Not 404 (the object is gone), 409 and 429 (try again), 408 (a timeout),
 * nor 401 and 403: those are about the operator's credentials and permissions, which an
 * administrator may fix, and are retried and then throttled like any failure of the API.
 *
 * <pre>{@code
 * // status: {create: "created", phase: "Ready"}; handlers [create]
 * PatchRejections.resultKeys(patch, Set.of("create"))   // [create]
 * PatchRejections.without(patch, List.of("create"))     // {status: {phase: "Ready"}}
 * }</pre>
 */
final class PatchRejections {
    /** Status keys that read well after a dot; others are shown as Kopf's documentation shows them: {@code status["a/b"]}. */
    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    private static final Set<Integer> NOT_ABOUT_THE_PATCH = Set.of(401, 403, 404, 408, 409, 429);

    private PatchRejections() {
    }

    /** Whether the API server refused the patch itself, so that sending it again can only fail again. */
    static boolean permanent(KubernetesClientException e) {
        return e.getCode() >= 400 && e.getCode() < 500 && !NOT_ABOUT_THE_PATCH.contains(e.getCode());
    }

    /**
     * The keys of the patch's {@code status} that hold the handlers' results: {@code status.<id>}, and
     * {@code status["<id>/<sub-id>"]} of their sub-handlers.
     *
     * @param handlerIds the handlers whose results the patch may hold
     */
    static List<String> resultKeys(Map<String, Object> patch, Set<String> handlerIds) {
        if (handlerIds.isEmpty() || !(patch.get("status") instanceof Map<?, ?> status)) {
            return List.of();
        }
        return status.keySet().stream().map(Object::toString)
                .filter(key -> handlerIds.stream().anyMatch(id -> key.equals(id) || key.startsWith(id + "/")))
                .toList();
    }

    /** {@return a copy of the patch without these keys of its status, and without the status if nothing is left in it} */
    static Map<String, Object> without(Map<String, Object> patch, List<String> statusKeys) {
        Map<String, Object> rest = new LinkedHashMap<>(patch);
        Map<String, Object> status = new LinkedHashMap<>();
        ((Map<?, ?>) patch.get("status")).forEach((key, value) -> status.put(key.toString(), value));
        statusKeys.forEach(status::remove);
        if (status.isEmpty()) {
            rest.remove("status");
        } else {
            rest.put("status", status);
        }
        return rest;
    }

    /** The error of results left out: the handlers, their fields and the API server's answer. */
    static String unstoredResults(List<String> keys, KubernetesClientException e) {
        String handlers = keys.stream().map(key -> "'" + key + "'").collect(Collectors.joining(", "));
        String fields = keys.stream().map(PatchRejections::statusField).collect(Collectors.joining(", "));
        return keys.size() == 1
                ? "Handler " + handlers + " succeeded, but its result in " + fields
                  + " is not stored: the API server rejected it: " + ApiErrors.summary(e, null)
                : "Handlers " + handlers + " succeeded, but their results in " + fields
                  + " are not stored: the API server rejected them: " + ApiErrors.summary(e, null);
    }

    /** The error of a status left out as a whole: its fields and the API server's answer. */
    static String unstoredStatus(Object status, KubernetesClientException e) {
        String fields = status instanceof Map<?, ?> map
                ? map.keySet().stream().map(key -> statusField(key.toString())).collect(Collectors.joining(", "))
                : "status";
        return "The status patch is not stored: the API server rejected it (" + fields + "): " + ApiErrors.summary(e, null);
    }

    private static String statusField(String key) {
        return PLAIN_KEY.matcher(key).matches() ? "status." + key : "status[\"" + key + "\"]";
    }
}
