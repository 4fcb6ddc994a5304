package io.kopf4j.internal.engines.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.WebhookError;
import io.kopf4j.WebhookFn;
import io.kopf4j.WebhookRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One webhook server for admission and conversions: only ConversionReviews under convert/, and only with conversions. */
class SharedServerTest {
    private static final WebhookFn ADMISSION = (review, request) -> Map.of("served", "admission");
    private static final WebhookFn CONVERSIONS = (review, request) -> Map.of("served", "conversion");
    private static final Map<String, Object> ADMISSION_REVIEW = Map.of("kind", "AdmissionReview");
    private static final Map<String, Object> CONVERSION_REVIEW = Map.of("kind", "ConversionReview");

    private static WebhookRequest at(String webhook) {
        return new WebhookRequest(webhook, Map.of(), Map.of());
    }

    @Test
    void conversionReviewsUnderConvertGoToTheConversionsAndEverythingElseToAdmission() {
        WebhookFn shared = AdmissionWebhooks.shared(ADMISSION, CONVERSIONS);

        assertThat(shared.serve(CONVERSION_REVIEW, at("convert/caches.kopf4j.dev"))).containsEntry("served", "conversion");
        assertThat(shared.serve(ADMISSION_REVIEW, at("validate"))).containsEntry("served", "admission");
        assertThat(shared.serve(CONVERSION_REVIEW, at("validate"))).containsEntry("served", "admission");
        assertThat(shared.serve(ADMISSION_REVIEW, at(null))).containsEntry("served", "admission");
    }

    @Test
    void theLargerBodiesUnderConvertAreNeverAdmissionReviewsNorServedWithoutConversions() {
        assertThatThrownBy(() -> AdmissionWebhooks.shared(ADMISSION, CONVERSIONS).serve(ADMISSION_REVIEW, at("convert/x")))
                .isInstanceOfSatisfying(WebhookError.class, e -> assertThat(e.httpStatus()).isEqualTo(400))
                .hasMessage("Only ConversionReviews are taken under /convert/.");
        assertThatThrownBy(() -> AdmissionWebhooks.shared(ADMISSION, null).serve(CONVERSION_REVIEW, at("convert/x")))
                .isInstanceOfSatisfying(WebhookError.class, e -> assertThat(e.httpStatus()).isEqualTo(404))
                .hasMessage("This operator converts no resources.");
    }
}
