package io.kopf4j.engines.probing;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code /metrics} in Prometheus' text format ({@code --metrics-bind-address=:8080}), as kubebuilder's. */
final class MetricsEndpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final HttpEndpoints http;

    /**
     * @param bindAddress {@code HOST:PORT} or {@code :PORT}
     */
    public MetricsEndpoint(String bindAddress) {
        this.http = new HttpEndpoints(HttpEndpoints.parse(bindAddress));
        http.route("/metrics", false, uri -> new HttpEndpoints.Response(200, "text/plain; version=0.0.4", registry.scrape()));
        http.start();
        LOG.info("Metrics at http://{}:{}/metrics", http.address().getHostString(), http.address().getPort());
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public InetSocketAddress address() {
        return http.address();
    }

    @Override
    public void close() {
        http.close();
        registry.close();
    }
}
