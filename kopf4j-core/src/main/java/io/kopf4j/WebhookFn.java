package io.kopf4j;

import java.util.Map;

/**
 * The admission engine as a webhook server sees it: one AdmissionReview in, one out (Kopf's
 * {@code WebhookFn}). Given by kopf4j to {@link WebhookServing#start}.
 *
 * <pre>{@code
 * Map<String, Object> review = json.readValue(requestBody, Map.class);
 * try {
 *     respond(200, json.writeValueAsBytes(requests.serve(review, new WebhookRequest(id, headers, Map.of()))));
 * } catch (WebhookError e) {
 *     respond(e.httpStatus(), e.getMessage());
 * }
 * }</pre>
 */
@FunctionalInterface
public interface WebhookFn {
    /**
     * Serves one admission review.
     *
     * @param review the AdmissionReview the API server sent, as parsed JSON
     * @param request what the server knows of the HTTP request (the webhook id from the URL path,
     *                the headers, the client certificate)
     * @return the AdmissionReview to answer with, as JSON maps
     * @throws WebhookError when the request itself is malformed or for a resource without handlers
     */
    Map<String, Object> serve(Map<String, Object> review, WebhookRequest request);
}
