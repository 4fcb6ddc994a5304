package io.kopf4j.internal.engines.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.AdmissionError;
import io.kopf4j.PermanentError;
import io.kopf4j.TemporaryError;
import io.kopf4j.internal.actions.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Kopf's build_response: echoes, allowed, warnings, the patch, and which error is reported. */
class AdmissionResponsesTest {
    private static final Map<String, Object> REVIEW = Map.of("apiVersion", "admission.k8s.io/v1beta1",
            "kind", "AdmissionReview", "request", Map.of("uid", "uid-1"));

    private static Outcome failed(Throwable error) {
        return new Outcome(true, null, error, null, Set.of());
    }

    private static Outcome succeeded() {
        return new Outcome(true, null, null, null, Set.of());
    }

    private static Map<String, Object> response(Map<String, Outcome> outcomes) {
        return payload(AdmissionResponses.build(REVIEW, outcomes, List.of(), List.of()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> payload(Map<String, Object> review) {
        return (Map<String, Object>) review.get("response");
    }

    private static Map<String, Outcome> outcomes(Object... idsAndOutcomes) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        for (int i = 0; i < idsAndOutcomes.length; i += 2) {
            outcomes.put((String) idsAndOutcomes[i], (Outcome) idsAndOutcomes[i + 1]);
        }
        return outcomes;
    }

    @Test
    void echoesTheReviewAndAllowsWhenNoHandlerFailed() {
        Map<String, Object> review = AdmissionResponses.build(REVIEW, outcomes("a", succeeded()), List.of(), List.of());
        assertThat(review).containsExactly(Map.entry("apiVersion", "admission.k8s.io/v1beta1"),
                Map.entry("kind", "AdmissionReview"),
                Map.entry("response", Map.of("uid", "uid-1", "allowed", true)));
    }

    @Test
    void defaultsTheEchoesWhenTheRequestLacksThem() {
        Map<String, Object> review = AdmissionResponses.build(Map.of(), Map.of(), List.of(), List.of());
        assertThat(review).containsEntry("apiVersion", "admission.k8s.io/v1").containsEntry("kind", "AdmissionReview");
        assertThat(payload(review)).containsExactly(Map.entry("uid", ""), Map.entry("allowed", true));
    }

    @Test
    void anAdmissionErrorWinsOverPermanentTemporaryAndArbitraryErrors() {
        Map<String, Object> payload = response(outcomes("a", failed(new IllegalStateException("arbitrary")),
                "b", new Outcome(false, null, new TemporaryError("temporary"), null, Set.of()),
                "c", failed(new PermanentError("permanent")), "d", failed(new AdmissionError("admission", 403)),
                "e", failed(new AdmissionError("second admission", 422))));
        assertThat(payload).containsEntry("allowed", false)
                .containsEntry("status", Map.of("message", "admission", "code", 403));
    }

    @Test
    void aPermanentErrorWinsOverTemporaryAndArbitraryOnesWithCode500() {
        Map<String, Object> payload = response(outcomes("a", failed(new IllegalStateException("arbitrary")),
                "b", new Outcome(false, null, new TemporaryError("temporary"), null, Set.of()),
                "c", failed(new PermanentError("permanent"))));
        assertThat(payload).containsEntry("status", Map.of("message", "permanent", "code", 500));
    }

    @Test
    void aTemporaryErrorWinsOverArbitraryOnes() {
        Map<String, Object> payload = response(outcomes("a", failed(new IllegalStateException("arbitrary")),
                "b", new Outcome(false, null, new TemporaryError("temporary"), null, Set.of())));
        assertThat(payload).containsEntry("allowed", false)
                .containsEntry("status", Map.of("message", "temporary", "code", 500));
    }

    @Test
    void anErrorWithoutAMessageIsReportedByItsRepresentation() {
        Map<String, Object> payload = response(outcomes("a", failed(new IllegalStateException())));
        assertThat(payload).containsEntry("status", Map.of("message", "java.lang.IllegalStateException", "code", 500));
    }

    @Test
    void anAdmissionErrorHasCode500ByDefault() {
        Map<String, Object> payload = response(outcomes("a", failed(new AdmissionError("too big"))));
        assertThat(payload).containsEntry("status", Map.of("message", "too big", "code", 500));
    }

    @Test
    void warningsAndTheJsonPatchInBase64AsPythonWritesIt() {
        Map<String, Object> operation = new LinkedHashMap<>();
        operation.put("op", "add");
        operation.put("path", "/spec/size");
        operation.put("value", 1);
        List<Object> patch = List.of(operation);
        Map<String, Object> payload = payload(AdmissionResponses.build(REVIEW, Map.of(), List.of("w1", "w2"), patch));
        assertThat(payload).containsEntry("warnings", List.of("w1", "w2")).containsEntry("patchType", "JSONPatch");
        String decoded = new String(Base64.getDecoder().decode((String) payload.get("patch")), StandardCharsets.UTF_8);
        // Python's json.dumps: ", " and ": " as separators, non-ASCII escaped.
        assertThat(decoded).isEqualTo("[{\"op\": \"add\", \"path\": \"/spec/size\", \"value\": 1}]");
        assertThat(List.copyOf(payload.keySet())).containsExactly("uid", "allowed", "warnings", "patch", "patchType");
    }
}
