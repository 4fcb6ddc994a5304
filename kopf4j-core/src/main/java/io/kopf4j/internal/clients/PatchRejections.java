package io.kopf4j.internal.clients;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
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
    /** The API server's answer to annotations over its limit, e.g. {@code metadata.annotations: Too long: must have at most 262144 bytes}. */
    private static final Pattern ANNOTATIONS_TOO_LONG = Pattern.compile("metadata\\.annotations: Too long: must have at most (\\d+) bytes");
    /** The most that all annotations of an object may hold together, keys and values: apimachinery's TotalAnnotationSizeLimitB. */
    private static final long ANNOTATIONS_LIMIT = 256 * 1024;
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

    /**
     * The error of annotations that together exceed the API server's limit, checked before anything
     * is sent: a diff-base or a progress record that holds a big object's essence or a long error
     * message. The API server would reject the body's PATCH; refused here, the status is not written
     * either, so that its write does not bring an event that runs the handlers again (as in Kopf,
     * which writes the body first). Null if the annotations fit.
     *
     * @param body the object as last seen, with the annotations it has
     * @param patch the merge patch of the body
     */
    static KubernetesClientException oversizedAnnotations(Map<String, Object> body, Map<String, Object> patch) {
        if (!(annotationsOf(patch) instanceof Map<?, ?> patched)) {
            return null;
        }
        Map<Object, Object> merged = new LinkedHashMap<>();
        if (annotationsOf(body) instanceof Map<?, ?> existing) {
            merged.putAll(existing);
        }
        patched.forEach((key, value) -> {
            if (value == null) {
                merged.remove(key);
            } else {
                merged.put(key, value);
            }
        });
        long total = merged.entrySet().stream().mapToLong(entry -> bytes(entry.getKey()) + bytes(entry.getValue())).sum();
        return total <= ANNOTATIONS_LIMIT ? null : new AnnotationsTooLargeError(tooLarge(patched, ANNOTATIONS_LIMIT));
    }

    /**
     * The same error for the API server's own rejection (its limit may differ from the one checked
     * beforehand), with its message; null for any other rejection.
     */
    static KubernetesClientException tooLargeAnnotations(Map<String, Object> patch, KubernetesClientException e) {
        Matcher limit = ANNOTATIONS_TOO_LONG.matcher(ApiErrors.summary(e, null));
        if (!permanent(e) || !limit.find() || !(annotationsOf(patch) instanceof Map<?, ?> patched)) {
            return null;
        }
        return new AnnotationsTooLargeError(tooLarge(patched, Long.parseLong(limit.group(1)))
                + " The API server said: " + ApiErrors.summary(e, null));
    }

    private static Object annotationsOf(Map<String, Object> object) {
        return object.get("metadata") instanceof Map<?, ?> metadata ? metadata.get("annotations") : null;
    }

    /** Names the biggest annotations of the patch, the limit and the remedies. */
    private static String tooLarge(Map<?, ?> patched, long limit) {
        String biggest = patched.entrySet().stream()
                .filter(entry -> entry.getValue() != null)
                .sorted(Comparator.comparingInt((Map.Entry<?, ?> entry) -> -bytes(entry.getValue())))
                .limit(3)
                .map(entry -> entry.getKey() + " (" + bytes(entry.getValue()) + " bytes)")
                .collect(Collectors.joining(", "));
        return "The annotations are not stored: with " + biggest + " the object's annotations exceed the API"
                + " server's limit of " + limit + " bytes in total. Leave the big fields out of the diff-base"
                + " (settings.persistence.diffbaseStorage = new AnnotationsDiffBaseStorage(prefix, key, ignoredFields)),"
                + " or keep the diff-base and the progress in the status (StatusDiffBaseStorage, StatusProgressStorage).";
    }

    private static int bytes(Object value) {
        return value.toString().getBytes(StandardCharsets.UTF_8).length;
    }

    private static String statusField(String key) {
        return PLAIN_KEY.matcher(key).matches() ? "status." + key : "status[\"" + key + "\"]";
    }
}
