package io.kopf4j.internal.engines.probing;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.pki.ServingKeys;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /metrics} in Prometheus' text format ({@code --metrics-bind-address=:8080}), as kubebuilder's:
 * plain HTTP to anyone, or ({@code settings.metrics.secure}) HTTPS to scrapers that the API server
 * authenticates and authorises ({@link MetricsAuthorization}), with the certificate of
 * {@code settings.metrics.certDirectory} (re-read on change) or a self-signed one.
 */
final class MetricsEndpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    private static final Duration CERTIFICATE_CHECKS = Duration.ofSeconds(60);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final HttpEndpoints http;
    private final ServingKeys keys;

    /**
     * @param bindAddress {@code HOST:PORT} or {@code :PORT}
     * @param settings {@code secure} and its {@code certDirectory}
     * @param client the operator's client once logged in (null before), for the scrapers' reviews when secure
     */
    MetricsEndpoint(String bindAddress, OperatorSettings.Metrics settings, Supplier<KubernetesClient> client) {
        InetSocketAddress address = HttpEndpoints.parse(bindAddress);
        try {
            this.keys = !settings.secure ? null : settings.certDirectory == null
                    ? ServingKeys.selfSigned(List.of("localhost", "127.0.0.1"))
                    : ServingKeys.fromFiles(settings.certDirectory.resolve("tls.crt"), settings.certDirectory.resolve("tls.key"),
                            CERTIFICATE_CHECKS);
            this.http = new HttpEndpoints(address, keys == null ? null : keys.sslContext());
        } catch (IOException e) {
            throw new OperatorException("cannot serve /metrics over HTTPS: " + e.getMessage(), e);
        }
        HttpEndpoints.Handler scrape = uri -> new HttpEndpoints.Response(200, "text/plain; version=0.0.4", registry.scrape());
        if (settings.secure) {
            http.route("/metrics", false, scrape, new MetricsAuthorization(client));
        } else {
            http.route("/metrics", false, scrape);
        }
        http.start();
        LOG.info("Metrics at {}://{}:{}/metrics{}", settings.secure ? "https" : "http", http.address().getHostString(),
                http.address().getPort(), settings.secure ? ", for scrapers allowed to get /metrics" : "");
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
        if (keys != null) {
            keys.close();
        }
    }
}
