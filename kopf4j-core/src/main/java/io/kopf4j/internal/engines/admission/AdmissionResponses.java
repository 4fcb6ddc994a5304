package io.kopf4j.internal.engines.admission;

import io.kopf4j.AdmissionError;
import io.kopf4j.PermanentError;
import io.kopf4j.TemporaryError;
import io.kopf4j.internal.actions.HandlerState;
import io.kopf4j.internal.actions.Outcome;
import io.kopf4j.internal.structs.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The AdmissionReview answered to the API server, exactly as Kopf's {@code build_response} makes it:
 * the request's apiVersion, kind and uid echoed; allowed only if no handler failed; the warnings;
 * the JSON Patch of the mutations in base64; and, if handlers failed, one error's message and code,
 * preferring {@link AdmissionError}s, then other permanent errors, then temporary ones, then any.
 *
 * <pre>{@code
 * Map<String, Object> review = AdmissionResponses.build(request, outcomes, warnings, jsonPatch);
 * // {apiVersion: admission.k8s.io/v1, kind: AdmissionReview,
 * //  response: {uid: ..., allowed: false, status: {message: "Size must be <= 100", code: 500}}}
 * }</pre>
 */
final class AdmissionResponses {
    private AdmissionResponses() {
    }

    /**
     * Builds the response.
     *
     * @param review the AdmissionReview the API server sent
     * @param outcomes the handlers' outcomes, in the order they ran
     * @param warnings the warnings the handlers added
     * @param jsonPatch the mutations as JSON Patch operations; empty for none
     * @return the AdmissionReview to answer with
     */
    public static Map<String, Object> build(Map<String, Object> review, Map<String, Outcome> outcomes,
                                            List<String> warnings, List<Object> jsonPatch) {
        // Only the uid is echoed: the request (with its objects) is not copied for it.
        Object uid = review.get("request") instanceof Map<?, ?> request ? request.get("uid") : null;
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("uid", uid == null ? "" : uid);
        payload.put("allowed", outcomes.values().stream().allMatch(outcome -> outcome.error() == null));
        if (!warnings.isEmpty()) {
            payload.put("warnings", warnings.stream().map(String::valueOf).toList());
        }
        if (!jsonPatch.isEmpty()) {
            payload.put("patch", Base64.getEncoder().encodeToString(Json.pythonDumps(jsonPatch).getBytes(StandardCharsets.UTF_8)));
            payload.put("patchType", "JSONPatch");
        }
        outcomes.values().stream().map(Outcome::error).filter(Objects::nonNull)
                .min(Comparator.comparingInt(AdmissionResponses::preference))   // the first of the best, as a stable sort
                .ifPresent(error -> {
                    Map<String, Object> status = new LinkedHashMap<>();
                    status.put("message", HandlerState.messageOf(error).isEmpty() ? error.toString() : HandlerState.messageOf(error));
                    status.put("code", error instanceof AdmissionError admission && admission.code() != 0 ? admission.code() : 500);
                    payload.put("status", status);
                });
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("apiVersion", review.getOrDefault("apiVersion", "admission.k8s.io/v1"));
        response.put("kind", review.getOrDefault("kind", "AdmissionReview"));
        response.put("response", payload);
        return response;
    }

    /** Kopf's order: admission errors first, then Kopf's permanent and temporary errors, then arbitrary ones. */
    private static int preference(Throwable error) {
        if (error instanceof AdmissionError) {
            return 0;
        }
        if (error instanceof PermanentError) {
            return 1;
        }
        return error instanceof TemporaryError ? 2 : 9;
    }
}
