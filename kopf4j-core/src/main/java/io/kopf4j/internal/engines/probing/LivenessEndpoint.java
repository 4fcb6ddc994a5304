package io.kopf4j.internal.engines.probing;

import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.structs.Json;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kopf's liveness endpoint ({@code --liveness=http://0.0.0.0:8080/healthz}): the results of the
 * {@code @On.Probe} handlers as JSON by id ({@code {}} without handlers), collected at most once per
 * cache period, under a lock, so that frequent probing cannot overload the operator. It is local:
 * it answers while the API server is away. The probes run as an activity, with Kopf's rules
 * (run by the {@link Endpoints.Probes} given); if one fails for good, the answer is 500.
 */
final class LivenessEndpoint implements AutoCloseable {
    /** Kopf's module logger of the endpoint (shown as {@code kopf.engines.probing}). */
    private static final Logger LOG = LoggerFactory.getLogger(LivenessEndpoint.class);
    /** The probe activity's, where its failures go. */
    private static final Logger PROBES = LoggerFactory.getLogger("kopf.activities.probe");

    private final HttpEndpoints http;
    private final Endpoints.Probes probes;
    private final OperatorSettings settings;
    private Map<String, Object> results;
    private long collectedAt;

    /** @param probes runs the probe handlers and gives their results by id */
    LivenessEndpoint(URI endpoint, Endpoints.Probes probes, OperatorSettings settings) {
        if (!"http".equals(endpoint.getScheme()) || endpoint.getPort() < 0) {
            throw new IllegalArgumentException("invalid liveness endpoint '" + endpoint
                    + "': expected http://HOST:PORT/PATH, e.g. http://0.0.0.0:8080/healthz");
        }
        this.probes = probes;
        this.settings = settings;
        this.http = new HttpEndpoints(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()));
        String path = endpoint.getPath() == null || endpoint.getPath().isEmpty() ? "/" : endpoint.getPath();
        http.route(path, false, uri -> respond());
        http.start();
        LOG.debug("Serving health status at http://{}:{}{}", http.address().getHostString(), http.address().getPort(), path);
    }

    public InetSocketAddress address() {
        return http.address();
    }

    private synchronized HttpEndpoints.Response respond() {
        try {
            // Read at each request: the endpoint answers before the startup handlers, which may change it.
            Duration cache = settings.probes.livenessCache;
            if (results == null || System.nanoTime() - collectedAt >= cache.toNanos()) {
                results = probes.run();
                collectedAt = System.nanoTime();
            }
            return new HttpEndpoints.Response(200, "application/json", Json.compact(results) + "\n");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new HttpEndpoints.Response(503, "application/json", "{\"error\":\"stopping\"}\n");
        } catch (RuntimeException e) {
            PROBES.error("A probe failed: {}", e.toString(), e);
            return new HttpEndpoints.Response(500, "application/json",
                    Json.compact(Map.of("error", String.valueOf(e.getMessage()))) + "\n");
        }
    }

    @Override
    public void close() {
        http.close();
    }
}
