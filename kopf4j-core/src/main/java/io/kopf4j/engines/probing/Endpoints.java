package io.kopf4j.engines.probing;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.HealthCheck;
import io.kopf4j.OperatorSettings;
import io.kopf4j.reactor.Reactor;
import io.kopf4j.runtime.Metrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The operator's HTTP endpoints, each optional: Kopf's liveness endpoint with the probe handlers'
 * results, controller-runtime's {@code /healthz} and {@code /readyz} with named checks, and
 * {@code /metrics}. They start before anything else, so that they answer while the operator logs
 * in and lists its resources. Readiness fails while a handler's resource is not served, e.g. its
 * CRD is missing ({@code resources-served}, naming them), and until every watched resource has been
 * listed ({@code watch-cache-sync}; for operators with indexes, {@code indexes-ready} until they are
 * complete); a paused operator, such as a leader election's standby, passes the listing checks.
 */
public final class Endpoints implements AutoCloseable {
    /**
     * What to serve where.
     *
     * @param liveness Kopf's liveness endpoint, e.g. {@code http://0.0.0.0:8080/healthz}, or null
     * @param healthProbeAddress where {@code /healthz} and {@code /readyz} listen, or null
     * @param livenessChecks the user's named liveness checks
     * @param readinessChecks the user's named readiness checks
     * @param metricsAddress where {@code /metrics} listens, or null
     * @param meterRegistry the application's registry for the metrics, or null
     */
    public record Config(URI liveness, String healthProbeAddress, Map<String, HealthCheck> livenessChecks,
                         Map<String, HealthCheck> readinessChecks, String metricsAddress, MeterRegistry meterRegistry) {
    }

    /** Runs the {@code @On.Probe} handlers, for Kopf's liveness endpoint. */
    @FunctionalInterface
    public interface Probes {
        /**
         * @return the probe handlers' results by handler id
         * @throws InterruptedException if interrupted (the operator stops)
         */
        Map<String, Object> run() throws InterruptedException;
    }

    private final LivenessEndpoint liveness;
    private final HealthEndpoints health;
    private final MetricsEndpoint metrics;
    private final Metrics recorder;

    /**
     * Starts the endpoints configured.
     *
     * @param probes runs the probe handlers, for Kopf's liveness endpoint
     * @param reactor the running reactor, once there is one (null before): readiness and progress read it
     * @param client the operator's client once logged in (null before): the secure metrics' reviews
     */
    public Endpoints(Config config, Probes probes, OperatorSettings settings, Supplier<Reactor> reactor,
                     Supplier<KubernetesClient> client) {
        liveness = config.liveness() == null ? null : new LivenessEndpoint(config.liveness(), probes, settings);
        health = config.healthProbeAddress() == null ? null
                : new HealthEndpoints(config.healthProbeAddress(), livenessChecks(config, settings, reactor),
                        readinessChecks(config, reactor));
        metrics = config.metricsAddress() == null ? null : new MetricsEndpoint(config.metricsAddress(), settings.metrics, client);
        recorder = recorder(config.meterRegistry(), metrics);
    }

    /** The operator's metrics: to the application's registry, to {@code /metrics}, or both. */
    public Metrics metrics() {
        return recorder;
    }

    /**
     * Adds a readiness check to {@code /readyz} once the operator knows it needs it.
     *
     * @param name the check's name: {@code /readyz/<name>}
     * @param check fails while not ready
     */
    public void addReadiness(String name, HealthCheck check) {
        if (health != null) {
            health.addReadiness(name, check);
        }
    }

    /** {@return the bound address of Kopf's liveness endpoint, or null} */
    public InetSocketAddress livenessAddress() {
        return liveness == null ? null : liveness.address();
    }

    /** {@return the bound address of {@code /healthz} and {@code /readyz}, or null} */
    public InetSocketAddress healthProbeAddress() {
        return health == null ? null : health.address();
    }

    /** {@return the bound address of {@code /metrics}, or null} */
    public InetSocketAddress metricsAddress() {
        return metrics == null ? null : metrics.address();
    }

    @Override
    public void close() {
        if (health != null) {
            health.close();
        }
        if (metrics != null) {
            metrics.close();
        }
        if (liveness != null) {
            liveness.close();
        }
    }

    private static Metrics recorder(MeterRegistry application, MetricsEndpoint endpoint) {
        if (application != null && endpoint != null) {
            return new Metrics(new CompositeMeterRegistry().add(application).add(endpoint.registry()));
        }
        return new Metrics(application != null ? application : endpoint == null ? null : endpoint.registry());
    }

    private static Map<String, HealthCheck> livenessChecks(Config config, OperatorSettings settings,
                                                           Supplier<Reactor> reactor) {
        Map<String, HealthCheck> checks = new LinkedHashMap<>();
        checks.put("ping", () -> { });
        checks.put("watchers", () -> {
            Reactor current = reactor.get();
            if (current != null) {
                current.checkWatchersAlive();
            }
        });
        if (settings.probes.progressTimeout != null) {
            checks.put("progress", () -> checkProgress(reactor.get(), settings));
        }
        checks.putAll(config.livenessChecks());
        return checks;
    }

    private static Map<String, HealthCheck> readinessChecks(Config config, Supplier<Reactor> reactor) {
        Map<String, HealthCheck> checks = new LinkedHashMap<>();
        checks.put("resources-served", () -> {
            Reactor current = reactor.get();
            // Not excused for a paused standby: a missing CRD is the cluster's state, not leadership's.
            if (current == null) {
                throw new IllegalStateException("the handlers' resources are not discovered yet");
            }
            current.checkResourcesServed();
        });
        checks.put("watch-cache-sync", () -> {
            Reactor current = reactor.get();
            // A paused standby (leader election) watches nothing, yet is ready: leadership gates work, not readiness.
            if (current == null || !current.listed() && !current.orchestrator().paused()) {
                throw new IllegalStateException("the initial listing of the watched resources is not complete");
            }
        });
        checks.putAll(config.readinessChecks());   // indexes-ready among them, for operators with indexes
        return checks;
    }

    /** Events wait, but none was processed for longer than {@code settings.probes.progressTimeout}: stuck. */
    private static void checkProgress(Reactor reactor, OperatorSettings settings) {
        if (reactor != null && reactor.progress().waiting() > 0
                && reactor.progress().sinceLastProcessed().compareTo(settings.probes.progressTimeout) > 0) {
            throw new IllegalStateException(reactor.progress().waiting() + " events wait, none processed for "
                    + reactor.progress().sinceLastProcessed().toSeconds() + " s");
        }
    }
}
