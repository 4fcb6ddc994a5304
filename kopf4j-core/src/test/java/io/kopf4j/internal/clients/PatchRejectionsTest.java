package io.kopf4j.internal.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PatchRejectionsTest {
    private static KubernetesClientException http(int code, String message) {
        return new KubernetesClientException(new StatusBuilder().withCode(code).withMessage(message).build());
    }

    @Test
    void onlyAnswersAboutThePatchItselfArePermanent() {
        assertThat(List.of(400, 413, 415, 422)).allMatch(code -> PatchRejections.permanent(http(code, "no")));
        assertThat(List.of(401, 403, 404, 408, 409, 429, 500, 503))
                .noneMatch(code -> PatchRejections.permanent(http(code, "no")));
    }

    @Test
    void resultsAreTheStatusKeysOfTheHandlersAndOfTheirSubHandlers() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("create", "created");
        status.put("create/item-a", 1);
        status.put("created-by", "someone");   // another field that merely starts like a handler's id
        status.put("phase", "Ready");
        status.put("kopf", Map.of("progress", Map.of()));
        Map<String, Object> patch = Map.of("status", status, "metadata", Map.of("labels", Map.of("a", "b")));

        assertThat(PatchRejections.resultKeys(patch, Set.of("create", "update"))).containsExactly("create", "create/item-a");
        assertThat(PatchRejections.resultKeys(patch, Set.of())).isEmpty();
        assertThat(PatchRejections.resultKeys(Map.of("spec", Map.of("create", 1)), Set.of("create"))).isEmpty();
    }

    @Test
    void theRestOfThePatchIsKeptAndAnEmptyStatusDropped() {
        Map<String, Object> patch = Map.of("status", Map.of("create", "created", "phase", "Ready"),
                "metadata", Map.of("labels", Map.of("a", "b")));

        assertThat(PatchRejections.without(patch, List.of("create")))
                .isEqualTo(Map.of("status", Map.of("phase", "Ready"), "metadata", Map.of("labels", Map.of("a", "b"))));
        assertThat(PatchRejections.without(Map.of("status", Map.of("create", "created")), List.of("create"))).isEmpty();
        assertThat(patch.get("status")).as("the original untouched").isEqualTo(Map.of("create", "created", "phase", "Ready"));
    }

    @Test
    void theErrorsNameTheHandlersTheFieldsAndTheApiServersMessage() {
        KubernetesClientException invalid = http(422, "X \"x\" is invalid: status.create: Invalid value");

        assertThat(PatchRejections.unstoredResults(List.of("create"), invalid)).isEqualTo("Handler 'create' succeeded, "
                + "but its result in status.create is not stored: the API server rejected it: "
                + "HTTP 422: X \"x\" is invalid: status.create: Invalid value");
        assertThat(PatchRejections.unstoredResults(List.of("create", "create/item-a"), invalid)).isEqualTo(
                "Handlers 'create', 'create/item-a' succeeded, but their results in status.create, status[\"create/item-a\"] "
                + "are not stored: the API server rejected them: HTTP 422: X \"x\" is invalid: status.create: Invalid value");
        assertThat(PatchRejections.unstoredStatus(Map.of("phase", 5), invalid)).isEqualTo("The status patch is not stored: "
                + "the API server rejected it (status.phase): HTTP 422: X \"x\" is invalid: status.create: Invalid value");
    }

    @Test
    void annotationsOverTheLimitAreNamedBiggestFirstWithTheLimitAndTheRemedies() {
        KubernetesClientException tooLong = http(422,
                "X \"x\" is invalid: metadata.annotations: Too long: must have at most 262144 bytes");
        Map<String, Object> patch = Map.of("metadata", Map.of("annotations", Map.of(
                "kopf.zalando.org/create", "{}", "kopf.zalando.org/last-handled-configuration", "é".repeat(200_000))));

        KubernetesClientException error = PatchRejections.tooLargeAnnotations(patch, tooLong);

        assertThat(error).isInstanceOf(AnnotationsTooLargeError.class);
        assertThat(error.getMessage()).isEqualTo("The annotations are not stored: with"
                + " kopf.zalando.org/last-handled-configuration (400000 bytes), kopf.zalando.org/create (2 bytes)"
                + " the object's annotations exceed the API server's limit of 262144 bytes in total."
                + " Leave the big fields out of the diff-base (settings.persistence.diffbaseStorage ="
                + " new AnnotationsDiffBaseStorage(prefix, key, ignoredFields)), or keep the diff-base and the progress"
                + " in the status (StatusDiffBaseStorage, StatusProgressStorage)."
                + " The API server said: HTTP 422: X \"x\" is invalid: metadata.annotations: Too long: must have at most 262144 bytes");
        assertThat(PatchRejections.tooLargeAnnotations(patch, http(422, "X \"x\" is invalid: spec.size: Invalid"))).isNull();
        assertThat(PatchRejections.tooLargeAnnotations(Map.of("status", Map.of()), tooLong)).isNull();
    }

    @Test
    void annotationsAreCheckedBeforeSendingAsTheyWouldBeAfterThePatch() {
        Map<String, Object> body = Map.of("metadata", Map.of("annotations", Map.of(
                "user/notes", "n".repeat(100_000), "kopf.zalando.org/create", "p".repeat(100_000))));
        Map<String, Object> fitting = Map.of("metadata", Map.of("annotations", Map.of(
                "kopf.zalando.org/last-handled-configuration", "d".repeat(62_000))));
        Map<String, Object> overflowing = Map.of("metadata", Map.of("annotations", Map.of(
                "kopf.zalando.org/last-handled-configuration", "d".repeat(63_000))));
        Map<String, Object> purging = new LinkedHashMap<>();
        purging.put("kopf.zalando.org/create", null);
        purging.put("kopf.zalando.org/last-handled-configuration", "d".repeat(150_000));

        assertThat(PatchRejections.oversizedAnnotations(body, fitting)).isNull();
        assertThat(PatchRejections.oversizedAnnotations(body, overflowing)).isInstanceOf(AnnotationsTooLargeError.class)
                .hasMessageStartingWith("The annotations are not stored: with kopf.zalando.org/last-handled-configuration"
                        + " (63000 bytes) the object's annotations exceed the API server's limit of 262144 bytes in total.")
                .hasMessageEndingWith("(StatusDiffBaseStorage, StatusProgressStorage).");
        assertThat(PatchRejections.oversizedAnnotations(body, Map.of("metadata", Map.of("annotations", purging)))).isNull();
        assertThat(PatchRejections.oversizedAnnotations(body, Map.of("status", Map.of()))).isNull();
    }
}
