package io.kopf4j.internal.engines.conversion;

/**
 * Why one object cannot be converted: answered to the API server as the review's
 * {@code Failure} with this message, which the API server passes on to its client.
 */
final class ConversionFailure extends IllegalArgumentException {
    ConversionFailure(String message) {
        super(message);
    }

    ConversionFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
