package io.kopf4j.internal.runtime;

import io.kopf4j.HealthCheck;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The operator's named health checks ({@code /healthz}) and readiness checks ({@code /readyz}),
 * registered by the engines that own them, and by the user, in the order they are listed. An
 * engine that starts late declares its checks early as {@linkplain #expectReadiness expected}: such
 * a check fails with its reason (a liveness check passes) until the engine registers the real one
 * under the same name, in the same place.
 *
 * <pre>{@code
 * OperatorChecks checks = new OperatorChecks();
 * checks.expectReadiness("watch-cache-sync", "the initial listing of the watched resources is not complete");
 * checks.readiness("database", () -> pool.check());          // the user's, listed after
 * ...                                                         // the reactor starts:
 * checks.readiness("watch-cache-sync", () -> observer.checkListed());   // replaces it, in its place
 * }</pre>
 *
 * The maps are replaced, never changed: a probe iterates the map it read.
 */
public final class OperatorChecks {
    private volatile Map<String, HealthCheck> liveness = Map.of();
    private volatile Map<String, HealthCheck> readiness = Map.of();

    /** The checks of an operator: the liveness {@code ping} first (the process answers, as controller-runtime's {@code healthz.Ping}). */
    public OperatorChecks() {
        liveness("ping", () -> { });
    }

    /**
     * Registers (or replaces, in its place) a liveness check.
     *
     * @param name its name: {@code /healthz/<name>} or {@code /readyz/<name>}
     * @param check fails while the operator is not alive
     */
    public synchronized void liveness(String name, HealthCheck check) {
        liveness = with(liveness, name, check);
    }

    /**
     * Registers (or replaces, in its place) a readiness check.
     *
     * @param name its name: {@code /healthz/<name>} or {@code /readyz/<name>}
     * @param check fails while the operator is not ready
     */
    public synchronized void readiness(String name, HealthCheck check) {
        readiness = with(readiness, name, check);
    }

    /**
     * Declares a liveness check of an engine not started yet: it passes until the engine registers it.
     *
     * @param name its name: {@code /healthz/<name>} or {@code /readyz/<name>}
     */
    public void expectLiveness(String name) {
        liveness(name, () -> { });
    }

    /**
     * Declares a readiness check of an engine not started yet: it fails with the reason until the engine registers it.
     *
     * @param name its name: {@code /healthz/<name>} or {@code /readyz/<name>}
     * @param reason why it fails meanwhile, e.g. {@code "the initial listing is not complete"}
     */
    public void expectReadiness(String name, String reason) {
        readiness(name, () -> {
            throw new IllegalStateException(reason);
        });
    }

    /** {@return the liveness checks now, in their order} */
    public Map<String, HealthCheck> liveness() {
        return liveness;
    }

    /** {@return the readiness checks now, in their order} */
    public Map<String, HealthCheck> readiness() {
        return readiness;
    }

    private static Map<String, HealthCheck> with(Map<String, HealthCheck> checks, String name, HealthCheck check) {
        Map<String, HealthCheck> copy = new LinkedHashMap<>(checks);
        copy.put(name, check);
        return Collections.unmodifiableMap(copy);
    }
}
