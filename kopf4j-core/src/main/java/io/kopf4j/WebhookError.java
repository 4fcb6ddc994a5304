package io.kopf4j;

/**
 * A malformed admission request, not a rejected API operation (Kopf's {@code WebhookError} and
 * its subclasses): the webhook server answers it with {@link #httpStatus()} instead of an
 * AdmissionReview. An operation the handlers reject is an {@link AdmissionError} instead.
 *
 * <pre>{@code
 * throw WebhookError.missingData("User info is missing from the admission request.");  // 400
 * }</pre>
 */
public final class WebhookError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The HTTP status the webhook server answers with, e.g. 400. */
    private final int httpStatus;

    private WebhookError(String message, int httpStatus) {
        super(message);
        this.httpStatus = httpStatus;
    }

    /**
     * Expected data are missing or malformed (Kopf's {@code MissingDataError}): HTTP 400.
     *
     * @param message what is missing
     * @return the error
     */
    public static WebhookError missingData(String message) {
        return new WebhookError(message, 400);
    }

    /**
     * The request is for a resource that no admission handler serves (Kopf's
     * {@code UnknownResourceError}): HTTP 404.
     *
     * @param message which resource
     * @return the error
     */
    public static WebhookError unknownResource(String message) {
        return new WebhookError(message, 404);
    }

    /**
     * The request's resource matches several served resources (Kopf's
     * {@code AmbiguousResourceError}): HTTP 409.
     *
     * @param message which resource
     * @return the error
     */
    public static WebhookError ambiguousResource(String message) {
        return new WebhookError(message, 409);
    }

    /** {@return the HTTP status to answer with: 400, 404 or 409} */
    public int httpStatus() {
        return httpStatus;
    }
}
