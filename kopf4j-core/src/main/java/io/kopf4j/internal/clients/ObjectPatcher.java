package io.kopf4j.internal.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.zjsonpatch.DiffFlags;
import io.fabric8.zjsonpatch.JsonDiff;
import io.kopf4j.Patch;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.structs.SecretValues;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Applies an accumulated patch: the merge patch of {@code status} (to the {@code /status}
 * subresource where there is one: the main endpoint would drop it), the merge patch of the body,
 * then the patch functions as JSON Patches guarded by a {@code test} on the resourceVersion. A
 * 409/422 there means the object changed meanwhile: the functions are carried over to the next
 * cycle. A 404 means the object is gone, which is not an error. A merge patch that the API server
 * rejects for good ({@link PatchRejections}) is sent again without the handlers' results in it; a
 * status still rejected is left out, with one error, and the body goes on without it. Annotations
 * over the API server's limit fail the patch, before anything is sent, with an error that names
 * them, the limit and the remedies.
 */
public final class ObjectPatcher implements ObjectPatching {
    /** Kopf's KNOWN_INCONSISTENCIES: fields the API server drops when empty. */
    private static final Set<List<String>> KNOWN_INCONSISTENCIES = Set.of(List.of("metadata", "annotations"),
            List.of("metadata", "finalizers"), List.of("metadata", "labels"));
    private static final EnumSet<DiffFlags> DIFF_FLAGS = EnumSet.of(DiffFlags.OMIT_MOVE_OPERATION, DiffFlags.OMIT_COPY_OPERATION);

    private final KubernetesClient client;
    private final Semaphore requests;
    private final ApiRetries retries;
    private final Metrics metrics;

    /**
     * @param maxConcurrentRequests how many PATCHes may be in flight at once; the others wait (so a
     *                              burst of objects queues here instead of overwhelming the API server)
     */
    public ObjectPatcher(KubernetesClient client, int maxConcurrentRequests, ApiRetries retries, Metrics metrics) {
        this.client = client;
        this.requests = new Semaphore(maxConcurrentRequests);
        this.retries = retries;
        this.metrics = metrics;
    }

    private String server() {
        return client.getMasterUrl().toString();
    }

    /** One PATCH, retried as {@link ApiRetries} says, and each attempt counted by its status code. */
    private Map<String, Object> send(ApiRequest target, String contentType, String patch, Logger logger) {
        return retries.call("PATCH " + target.url(), server(), logger,
                () -> measured(() -> target.send("PATCH", contentType, patch)));
    }

    private Map<String, Object> measured(Supplier<Map<String, Object>> patch) {
        long started = System.nanoTime();
        int status = 200;
        try {
            return patch.get();
        } catch (KubernetesClientException e) {
            status = Math.max(e.getCode(), 0);
            throw e;
        } finally {
            metrics.apiRequest("PATCH", status, Duration.ofNanos(System.nanoTime() - started));
        }
    }

    @Override
    public Applied apply(io.kopf4j.Resource resource, Map<String, Object> body, Patch patch, Set<String> resultsOf,
                         Logger logger) {
        requests.acquireUninterruptibly();
        try {
            return applyNow(resource, body, patch, resultsOf, logger);
        } finally {
            requests.release();
        }
    }

    private Applied applyNow(io.kopf4j.Resource resource, Map<String, Object> body, Patch patch, Set<String> resultsOf,
                             Logger logger) {
        String namespace = Dicts.resolve(body, List.of("metadata", "namespace"), null) instanceof String ns ? ns : null;
        String name = String.valueOf(Dicts.resolve(body, List.of("metadata", "name"), null));
        ApiRequest object = ApiRequest.object(client, resource, namespace, name);
        ApiRequest objectStatus = resource.hasStatusSubresource() ? object.status() : object;
        Map<String, Object> merge = patch.toMap();
        Object status = resource.hasStatusSubresource() ? merge.remove("status") : null;
        KubernetesClientException oversized = PatchRejections.oversizedAnnotations(body, merge);
        if (oversized != null) {
            throw oversized;
        }
        Map<String, Object> fresh = body;
        List<String> versions = new ArrayList<>();   // of every PATCH sent, in order
        try {
            // The status (handlers' results) goes first and the body (with the diff-base) last: a crash
            // between the two then leaves the object not yet handled, to be handled again after a restart,
            // never marked handled with its results lost (Kopf's order, body first, risks the latter).
            if (status != null) {
                try {
                    Map<String, Object> statusPatch = Map.of("status", status);
                    fresh = merged(mergePatch(objectStatus, "status", statusPatch, body, resultsOf, logger), fresh, versions);
                } catch (KubernetesClientException e) {
                    if (!PatchRejections.permanent(e)) {
                        throw e;
                    }
                    // Not stored, and never will be: the body (the progress, the diff-base) goes on
                    // without it, rather than the handlers running again at every event for it.
                    logger.error(PatchRejections.unstoredStatus(status, e));
                }
            }
            if (!merge.isEmpty()) {
                fresh = merged(mergePatch(object, "resource", merge, body, resultsOf, logger), fresh, versions);
            }
            if (!patch.fns().isEmpty()) {
                Map<String, Object> edited = Json.deepCopy(fresh);
                patch.fns().forEach(fn -> fn.accept(edited));
                List<JsonNode> operations = operations(fresh, edited);
                List<JsonNode> statusOps = resource.hasStatusSubresource()
                        ? operations.stream().filter(ObjectPatcher::isStatusOperation).toList() : List.of();
                List<JsonNode> bodyOps = operations.stream().filter(op -> !statusOps.contains(op)).toList();
                for (var ops : List.of(bodyOps, statusOps)) {
                    if (ops.isEmpty()) {
                        continue;
                    }
                    ApiRequest target = ops == statusOps ? objectStatus : object;
                    try {
                        ArrayNode guardedNode = guarded(versionOf(fresh), ops);
                        String guardedOps = Json.compact(guardedNode);
                        if (logger.isDebugEnabled()) {
                            logger.debug("JSON-patching the {} with: {}", ops == statusOps ? "status" : "resource",
                                    Json.pythonRepr(Json.mapper().convertValue(guardedNode, List.class)));
                        }
                        fresh = send(target, ApiRequest.JSON, guardedOps, logger);
                        versions.add(versionOf(fresh));
                    } catch (KubernetesClientException e) {
                        if (e.getCode() == 409 || e.getCode() == 422) {
                            if (logger.isDebugEnabled()) {
                                logger.debug("Could not apply the patch in full due to conflicts with newer changes. "
                                        + "Will try on the next cycle soon. Remaining: {}", remaining(patch.fns()));
                            }
                            return applied(versions, new ArrayList<>(patch.fns()));
                        }
                        throw e;
                    }
                }
            }
            return applied(versions, List.of());
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                logger.debug("Patching was skipped: the object does not exist anymore.");
                return new Applied(null, List.of());
            }
            throw e;
        }
    }

    /**
     * One merge patch. One that the API server rejects for good while it holds handlers' results is
     * sent again without them, with one error naming them: a result that the resource's schema does
     * not allow then costs only itself, not the progress and the diff-base written with or after it.
     *
     * @return the object as patched; null if nothing was left to send
     */
    private Map<String, Object> mergePatch(ApiRequest target, String what, Map<String, Object> patch,
                                           Map<String, Object> body, Set<String> resultsOf, Logger logger) {
        try {
            return sendMerge(target, what, patch, body, logger);
        } catch (KubernetesClientException e) {
            KubernetesClientException tooLarge = PatchRejections.tooLargeAnnotations(patch, e);
            if (tooLarge != null) {
                throw tooLarge;
            }
            List<String> results = PatchRejections.resultKeys(patch, resultsOf);
            if (!PatchRejections.permanent(e) || results.isEmpty()) {
                throw e;
            }
            Map<String, Object> rest = PatchRejections.without(patch, results);
            Map<String, Object> patched = rest.isEmpty() ? null : sendMerge(target, what, rest, body, logger);
            logger.error(PatchRejections.unstoredResults(results, e));
            return patched;
        }
    }

    /** @param body the object patched: a Secret's values in the patch are logged as digests ({@link SecretValues}) */
    private Map<String, Object> sendMerge(ApiRequest target, String what, Map<String, Object> patch, Map<String, Object> body,
                                          Logger logger) {
        if (logger.isDebugEnabled()) {
            logger.debug("Merge-patching the {} with: {}", what, Json.pythonRepr(loggable(patch, body)));
        }
        Map<String, Object> patched = send(target, ApiRequest.MERGE, Json.compact(patch), logger);
        warnOfInconsistencies(loggable(patch, body), patched == null ? null : loggable(patched, body), logger);
        return patched;
    }

    private static Map<String, Object> loggable(Map<String, Object> patch, Map<String, Object> body) {
        if (!SecretValues.isSecret(body)) {
            return patch;
        }
        Map<String, Object> copy = new LinkedHashMap<>(patch);
        SecretValues.digestInPlace(copy, SecretValues.uidOf(body));
        return copy;
    }

    /** The freshest object after a merge patch, its version noted; the one before if nothing was sent. */
    private static Map<String, Object> merged(Map<String, Object> patched, Map<String, Object> before, List<String> versions) {
        if (patched == null) {
            return before;
        }
        versions.add(versionOf(patched));
        return patched;
    }

    /** What is left to patch, as Kopf's {@code repr} of its {@code Patch} of the functions: {@code Patch(fns=[...])}. */
    private static String remaining(List<Consumer<Map<String, Object>>> fns) {
        return "Patch(fns=[" + String.join(", ", fns.stream().map(Object::toString).toList()) + "])";
    }

    /** The last PATCH's version; all before it are the intermediate states between our own PATCHes. */
    private static Applied applied(List<String> versions, List<Consumer<Map<String, Object>>> remainingFns) {
        if (versions.isEmpty()) {
            return new Applied(null, remainingFns);
        }
        int last = versions.size() - 1;
        return new Applied(versions.get(last), remainingFns, List.copyOf(versions.subList(0, last)));
    }

    private static List<JsonNode> operations(Map<String, Object> before, Map<String, Object> after) {
        JsonNode diff = JsonDiff.asJson(Json.mapper().valueToTree(before), Json.mapper().valueToTree(after), DIFF_FLAGS);
        List<JsonNode> operations = new ArrayList<>();
        diff.forEach(operations::add);
        return operations;
    }

    private static boolean isStatusOperation(JsonNode operation) {
        String path = operation.path("path").asText();
        return path.equals("/status") || path.startsWith("/status/");
    }

    private static ArrayNode guarded(String resourceVersion, List<JsonNode> operations) {
        ArrayNode patch = Json.mapper().createArrayNode();
        ObjectNode test = patch.addObject();
        test.put("op", "test");
        test.put("path", "/metadata/resourceVersion");
        test.put("value", resourceVersion);
        operations.forEach(patch::add);
        return patch;
    }

    /**
     * Kopf's "inconsistencies" warning: what the merge patch set but the returned object does not
     * hold (a status pruned by a structural schema, one the resource does not accept), as Kopf's diff
     * of the patch against the result (its left side only), in Kopf's notation:
     * {@code (('remove', ('status', 'create'), 'pruned', None),)}. An empty map sent is left out, as
     * are Kopf's known inconsistencies: empty annotations, finalizers or labels that the API server
     * drops.
     */
    private static void warnOfInconsistencies(Map<String, Object> patch, Map<String, Object> result, Logger logger) {
        String found = inconsistencies(patch, result);
        if (found != null) {
            logger.warn("Merge-patching finished with inconsistencies: {}", found);
        }
    }

    /** {@return the inconsistencies of the result with the merge patch, as Kopf writes them; null if none} */
    static String inconsistencies(Map<String, Object> patch, Map<String, Object> result) {
        List<String> items = new ArrayList<>();
        collectInconsistencies(patch, result, List.of(), items);
        return items.isEmpty() ? null : "(" + String.join(", ", items) + (items.size() == 1 ? ",)" : ")");
    }

    private static void collectInconsistencies(Object sent, Object stored, List<String> path, List<String> out) {
        if (Json.equal(sent, stored)) {
            return;
        }
        if (sent instanceof Map<?, ?> nested && (stored instanceof Map<?, ?> || (stored == null && nested.isEmpty()))) {
            for (Map.Entry<?, ?> entry : nested.entrySet()) {
                List<String> field = new ArrayList<>(path);
                field.add(entry.getKey().toString());
                collectInconsistencies(entry.getValue(), stored instanceof Map<?, ?> map ? map.get(entry.getKey()) : null,
                        field, out);
            }
            return;
        }
        String operation = sent == null ? "add" : stored == null ? "remove" : "change";
        if (KNOWN_INCONSISTENCIES.contains(path) && !truthy(sent) && !truthy(stored)) {
            return;
        }
        out.add("(" + Json.pythonRepr(operation) + ", " + pythonTuple(path) + ", " + Json.pythonRepr(sent) + ", "
                + Json.pythonRepr(stored) + ")");
    }

    /** Python's truth of a JSON value: None, false, 0, and empty strings, lists and maps are false. */
    private static boolean truthy(Object value) {
        return switch (value) {
            case null -> false;
            case Boolean flag -> flag;
            case Number number -> number.doubleValue() != 0;
            case CharSequence text -> !text.isEmpty();
            case Collection<?> items -> !items.isEmpty();
            case Map<?, ?> map -> !map.isEmpty();
            default -> true;
        };
    }

    /** A field path as Python writes a tuple: {@code ('status', 'create')}, {@code ('status',)}. */
    private static String pythonTuple(List<String> path) {
        List<String> names = path.stream().map(Json::pythonRepr).toList();
        return "(" + String.join(", ", names) + (names.size() == 1 ? "," : "") + ")";
    }

    private static String versionOf(Map<String, Object> body) {
        return body.get("metadata") instanceof Map<?, ?> meta && meta.get("resourceVersion") != null
                ? meta.get("resourceVersion").toString() : null;
    }
}
