package io.kopf4j.internal.engines.conversion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.WebhookError;
import io.kopf4j.WebhookRequest;
import io.kopf4j.internal.intents.ConversionGraph;
import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ConversionReviews in and out: the API server's rules, the fields kept, the failures as answers. */
class ConversionEngineTest {
    private static final WebhookRequest REQUEST = new WebhookRequest("convert/widgets.kopf4j.dev", Map.of(), Map.of());
    private final ConversionEngine engine = new ConversionEngine(ConversionGraph.of(List.of(ConversionGraphTest.UP,
            ConversionGraphTest.DOWN, ConversionGraphTest.UP_BETA, ConversionGraphTest.DOWN_BETA)));

    private static Map<String, Object> object(String version, String spec) {
        return Json.parseMap("{\"apiVersion\": \"kopf4j.dev/" + version + "\", \"kind\": \"Widget\", \"metadata\":"
                + " {\"name\": \"w1\", \"namespace\": \"ns\", \"uid\": \"u-1\", \"resourceVersion\": \"7\","
                + " \"labels\": {\"app\": \"x\"}, \"annotations\": {\"kopf.zalando.org/last-handled-configuration\": \"{}\"}},"
                + " \"spec\": " + spec + ", \"status\": {\"create_fn\": {\"message\": \"done\"}}}");
    }

    private Map<String, Object> response(String desired, Map<String, Object>... objects) {
        Map<String, Object> review = Json.parseMap(Json.compact(Map.of("apiVersion", "apiextensions.k8s.io/v1",
                "kind", "ConversionReview", "request", Map.of("uid", "r-1", "desiredAPIVersion", "kopf4j.dev/" + desired,
                        "objects", List.of(objects)))));
        Map<String, Object> answer = engine.serve(review, REQUEST);
        assertThat(answer).containsEntry("apiVersion", "apiextensions.k8s.io/v1").containsEntry("kind", "ConversionReview");
        @SuppressWarnings("unchecked")
        Map<String, Object> response = (Map<String, Object>) answer.get("response");
        assertThat(response).containsEntry("uid", "r-1");
        return response;
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> converted(String desired, Map<String, Object>... objects) {
        Map<String, Object> response = response(desired, objects);
        assertThat(response).containsEntry("result", Map.of("status", "Success"));
        return (List<Map<String, Object>>) response.get("convertedObjects");
    }

    @Test
    void upToTheHubKeepsMetadataAndWhatTheClassesDoNotKnow() {
        Map<String, Object> old = object("v1alpha1", "{\"field\": \"f\", \"size\": 5, \"extra\": [1, 2]}");

        Map<String, Object> v1 = converted("v1", old).getFirst();

        assertThat(v1).containsEntry("apiVersion", "kopf4j.dev/v1").containsEntry("kind", "Widget")
                .containsEntry("metadata", old.get("metadata"))
                .containsEntry("spec", Map.of("field", "f", "size", Map.of("amount", 5, "unit", "Gi"), "extra", List.of(1, 2)))
                .containsEntry("status", Map.of("create_fn", Map.of("message", "done")));
    }

    @Test
    void whatAVersionCannotHoldSurvivesARoundTripThroughIt() {
        Map<String, Object> hub = object("v1", "{\"field\": \"f\", \"size\": {\"amount\": 5, \"unit\": \"Mi\"}}");

        Map<String, Object> old = converted("v1alpha1", hub).getFirst();
        assertThat(old).containsEntry("spec", Map.of("field", "f", "size", 5));
        assertThat(Dicts.resolve(old, List.of("metadata", "annotations", ConversionData.ANNOTATION), null))
                .isEqualTo("{\"v1\":[{\"path\":[\"spec\",\"size\",\"unit\"],\"value\":\"Mi\",\"was\":\"Gi\"}]}");

        Map<String, Object> back = converted("v1", old).getFirst();
        assertThat(back).containsEntry("spec", Map.of("field", "f", "size", Map.of("amount", 5, "unit", "Mi")))
                .containsEntry("metadata", hub.get("metadata"));   // the annotation is gone again
    }

    @Test
    @SuppressWarnings("unchecked")
    void aChangeMadeInTheOtherVersionWinsOverTheRecord() {
        Map<String, Object> hub = object("v1", "{\"field\": \"f\", \"size\": {\"amount\": 5, \"unit\": \"Mi\"}}");
        Map<String, Object> old = converted("v1alpha1", hub).getFirst();

        Map<String, Object> resized = Json.deepCopy(old);
        ((Map<String, Object>) resized.get("spec")).put("size", 7);
        assertThat(converted("v1", resized).getFirst().get("spec"))
                .isEqualTo(Map.of("field", "f", "size", Map.of("amount", 7, "unit", "Mi")));

        Map<String, Object> unsized = Json.deepCopy(old);
        ((Map<String, Object>) unsized.get("spec")).remove("size");
        assertThat(converted("v1", unsized).getFirst().get("spec")).isEqualTo(Map.of("field", "f"));
    }

    @Test
    void twoOtherVersionsConvertThroughTheHubInOrderWithMixedSources() {
        Map<String, Object> alpha = object("v1alpha1", "{\"field\": \"a\", \"size\": 5}");
        Map<String, Object> hub = object("v1", "{\"field\": \"h\", \"size\": {\"amount\": 3, \"unit\": \"Ti\"}}");
        Map<String, Object> beta = object("v1beta1", "{\"field\": \"b\", \"size\": \"9Mi\"}");

        List<Map<String, Object>> converted = converted("v1beta1", alpha, hub, beta);

        assertThat(converted).extracting(o -> o.get("spec")).containsExactly(
                Map.of("field", "a", "size", "5Gi"), Map.of("field", "h", "size", "3Ti"), Map.of("field", "b", "size", "9Mi"));
        assertThat(converted.get(2)).isEqualTo(beta);   // already in the desired version: as it came
    }

    @Test
    void aConversionThatThrowsFailsTheReviewWithItsMessage() {
        Map<String, Object> big = object("v1", "{\"field\": \"f\", \"size\": {\"amount\": 2000, \"unit\": \"Gi\"}}");

        Map<String, Object> response = response("v1alpha1", object("v1", "{\"field\": \"ok\"}"), big);

        assertThat(response).containsEntry("result", Map.of("status", "Failure", "message",
                "size too large for v1alpha1: 2000")).doesNotContainKey("convertedObjects");
    }

    @Test
    void aBodyThatDoesNotFitTheClassFailsNamingTheField() {
        Map<String, Object> response = response("v1", object("v1alpha1", "{\"size\": \"five\"}"));

        assertThat(response.get("result")).asString().contains("Failure", "cannot convert the object to Widget at spec.size");
    }

    @Test
    void anUnknownVersionOrKindFailsTheReview() {
        assertThat(response("v2", object("v1", "{}")).get("result")).isEqualTo(Map.of("status", "Failure", "message",
                "this operator has no conversions of Widget version v2; it converts [v1, v1alpha1, v1beta1]"));
    }

    @Test
    void aV1beta1ReviewIsAnsweredAsV1beta1AndAMalformedOneIsABadRequest() {
        Map<String, Object> review = Json.parseMap("{\"apiVersion\": \"apiextensions.k8s.io/v1beta1\", \"kind\":"
                + " \"ConversionReview\", \"request\": {\"uid\": \"r-2\", \"desiredAPIVersion\": \"kopf4j.dev/v1\","
                + " \"objects\": []}}");
        assertThat(engine.serve(review, REQUEST)).containsEntry("apiVersion", "apiextensions.k8s.io/v1beta1");

        assertThatThrownBy(() -> engine.serve(Map.of("kind", "ConversionReview", "request", Map.of("uid", "x")), REQUEST))
                .isInstanceOf(WebhookError.class).hasMessageContaining("desiredAPIVersion");
    }

    @Test
    void garbageInTheAnnotationIsReplacedNotFatal() {
        Map<String, Object> old = object("v1alpha1", "{\"field\": \"f\", \"size\": 5}");
        Dicts.ensure(old, List.of("metadata", "annotations", ConversionData.ANNOTATION), "{not json");

        Map<String, Object> v1 = converted("v1", old).getFirst();

        assertThat(v1.get("spec")).isEqualTo(Map.of("field", "f", "size", Map.of("amount", 5, "unit", "Gi")));
        assertThat(Dicts.contains(v1, List.of("metadata", "annotations", ConversionData.ANNOTATION))).isFalse();
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRecordWrittenByAClientRestoresNothingThatDoesNotFitAndForgetsUnknownVersions() {
        Map<String, Object> old = object("v1alpha1", "{\"field\": \"f\", \"size\": 5}");
        // Through a scalar (size.amount is a number), a value of the wrong type, a version nobody converts.
        Dicts.ensure(old, List.of("metadata", "annotations", ConversionData.ANNOTATION), "{\"v1\": ["
                + "{\"path\": [\"spec\", \"size\", \"amount\", \"x\"], \"value\": 1, \"was\": 5},"
                + "{\"path\": [\"spec\", \"size\", \"unit\"], \"value\": {\"not\": \"a text\"}, \"was\": \"Gi\"}],"
                + " \"v0\": [{\"path\": [\"spec\", \"x\"], \"value\": 1}]}");

        Map<String, Object> v1 = converted("v1", old).getFirst();

        assertThat(v1.get("spec")).isEqualTo(Map.of("field", "f", "size", Map.of("amount", 5, "unit", "Gi")));
        assertThat(Dicts.contains(v1, List.of("metadata", "annotations", ConversionData.ANNOTATION))).isFalse();
    }

    @Test
    void hostileNumbersFailOneObjectAtMostNeverTheServer() {
        Map<String, Object> hub = object("v1", "{\"field\": \"f\", \"size\": {\"amount\": 1e400, \"unit\": \"Gi\"}}");

        Map<String, Object> response = response("v1alpha1", hub);

        assertThat(((Map<String, Object>) response.get("result")).get("status")).isIn("Success", "Failure");
    }
}
