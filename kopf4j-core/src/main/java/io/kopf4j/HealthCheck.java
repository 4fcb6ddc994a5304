package io.kopf4j;

/**
 * A named health check for {@code /healthz} or {@code /readyz}, as controller-runtime's
 * {@code healthz.Checker}: it passes by returning and fails by throwing (the message is shown with
 * {@code ?verbose}). Checks are called on every probe, so they must be cheap: read a flag, never
 * wait for the network.
 *
 * <pre>{@code
 * Operator.builder().readinessCheck("database", () -> {
 *     if (!pool.isConnected()) throw new IllegalStateException("no database connection");
 * });
 * }</pre>
 */
@FunctionalInterface
public interface HealthCheck {
    /**
     * Passes by returning.
     *
     * @throws Exception to fail the probe; its message is shown with {@code ?verbose}
     */
    void check() throws Exception;
}
