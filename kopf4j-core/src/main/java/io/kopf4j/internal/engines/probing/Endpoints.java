package io.kopf4j.internal.engines.probing;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.runtime.Engine;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorChecks;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The operator's HTTP endpoints, each optional: Kopf's liveness endpoint with the probe handlers'
 * results, controller-runtime's {@code /healthz} and {@code /readyz} with the operator's named
 * checks ({@link OperatorChecks}: each engine registers its own, the user's come after), and
 * {@code /metrics}. The first engine: they listen from the construction on, so that they answer
 * while the operator logs in and lists its resources, and the metrics they serve are recorded by
 * every later engine.
 *
 * <pre>{@code
 * Endpoints endpoints = new Endpoints(config, checks, probes, settings, () -> login.client());
 * Metrics metrics = endpoints.metrics();
 * ...
 * endpoints.release(true);   // the servers close
 * }</pre>
 */
public final class Endpoints implements Engine {
    /**
     * What to serve where.
     *
     * @param liveness Kopf's liveness endpoint, e.g. {@code http://0.0.0.0:8080/healthz}, or null
     * @param healthProbeAddress where {@code /healthz} and {@code /readyz} listen, or null
     * @param metricsAddress where {@code /metrics} listens, or null
     * @param meterRegistry the application's registry for the metrics, or null
     */
    public record Config(URI liveness, String healthProbeAddress, String metricsAddress, MeterRegistry meterRegistry) {
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
     * @param checks the operator's checks, served as they are at each probe
     * @param probes runs the probe handlers, for Kopf's liveness endpoint
     * @param client the operator's client once logged in (null before): the secure metrics' reviews
     */
    public Endpoints(Config config, OperatorChecks checks, Probes probes, OperatorSettings settings,
                     Supplier<KubernetesClient> client) {
        liveness = config.liveness() == null ? null : new LivenessEndpoint(config.liveness(), probes, settings);
        health = config.healthProbeAddress() == null ? null : new HealthEndpoints(config.healthProbeAddress(), checks);
        metrics = config.metricsAddress() == null ? null : new MetricsEndpoint(config.metricsAddress(), settings.metrics, client);
        recorder = recorder(config.meterRegistry(), metrics);
    }

    /** The operator's metrics: to the application's registry, to {@code /metrics}, or both. */
    public Metrics metrics() {
        return recorder;
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

    /** The servers close: the last engine released, so that probes are answered during the cleanup. */
    @Override
    public void release(boolean handlersEnded) {
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
}
