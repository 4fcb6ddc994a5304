package io.kopf4j;

/**
 * Thrown by a validating or mutating handler to reject the API operation under check, with a
 * message and an HTTP code for the user (Kopf's {@code kopf.AdmissionError}). Preferred over any
 * other error when several handlers fail in one request.
 *
 * <pre>{@code
 * @On.Validate("kopfexamples")
 * public void validate(Spec spec) {
 *     if (spec.getInt("size", 0) > 100) {
 *         throw new AdmissionError("Size must be <= 100");
 *     }
 * }
 * }</pre>
 */
public class AdmissionError extends PermanentError {
    private static final long serialVersionUID = 1L;
    /** The HTTP code of the rejection, e.g. 400; 500 unless given. */
    private final int code;

    /**
     * A rejection with this message and HTTP code 500, as Kopf's default.
     *
     * @param message what is wrong with the operation, shown to the user
     */
    public AdmissionError(String message) {
        this(message, 500);
    }

    /**
     * A rejection with this message and HTTP code.
     *
     * @param message what is wrong with the operation, shown to the user
     * @param code the HTTP status code reported to the user (e.g. 400, 403, 422)
     */
    public AdmissionError(String message, int code) {
        super(message == null ? "" : message);
        this.code = code;
    }

    /** {@return the HTTP status code reported to the user} */
    public int code() {
        return code;
    }
}
