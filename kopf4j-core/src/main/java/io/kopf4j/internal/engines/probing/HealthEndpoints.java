package io.kopf4j.internal.engines.probing;

import io.kopf4j.HealthCheck;
import io.kopf4j.internal.runtime.OperatorChecks;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * controller-runtime's health probes ({@code --health-probe-bind-address=:8081}): {@code /healthz}
 * (liveness: restart me if I fail) and {@code /readyz} (readiness: do not count me as ready), each
 * the aggregate of named checks, with {@code /readyz/<name>} for one check, {@code ?verbose} for a
 * {@code [+]name ok} / {@code [-]name failed} list, and {@code ?exclude=name}. 200 or 500.
 */
final class HealthEndpoints implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HealthEndpoints.class);

    private final HttpEndpoints http;

    /**
     * @param bindAddress {@code HOST:PORT} or {@code :PORT}
     * @param checks the operator's checks, as they are at each probe
     */
    HealthEndpoints(String bindAddress, OperatorChecks checks) {
        this.http = new HttpEndpoints(HttpEndpoints.parse(bindAddress));
        route("healthz", checks::liveness);
        route("readyz", checks::readiness);
        http.start();
        LOG.info("Health probes at http://{}:{}/healthz and /readyz", http.address().getHostString(), http.address().getPort());
    }

    public InetSocketAddress address() {
        return http.address();
    }

    private void route(String kind, Supplier<Map<String, HealthCheck>> current) {
        http.route("/" + kind, true, uri -> {
            Map<String, HealthCheck> checks = current.get();
            String rest = uri.getPath().substring(kind.length() + 1);
            if (rest.isEmpty() || rest.equals("/")) {
                return aggregate(kind, checks, uri);
            }
            HealthCheck check = checks.get(rest.substring(1));
            if (check == null) {
                return new HttpEndpoints.Response(404, "text/plain", "no such check: " + rest.substring(1) + "\n");
            }
            String failure = failure(check);
            return failure == null ? new HttpEndpoints.Response(200, "text/plain", "ok")
                    : new HttpEndpoints.Response(500, "text/plain", "internal server error: " + failure + "\n");
        });
    }

    private static HttpEndpoints.Response aggregate(String kind, Map<String, HealthCheck> checks, URI uri) {
        Set<String> excluded = new HashSet<>();
        boolean verbose = false;
        if (uri.getRawQuery() != null) {
            for (String parameter : uri.getRawQuery().split("&")) {
                String[] pair = parameter.split("=", 2);
                String name = URLDecoder.decode(pair[0], StandardCharsets.UTF_8);
                if (name.equals("verbose")) {
                    verbose = true;
                } else if (name.equals("exclude") && pair.length == 2) {
                    excluded.add(URLDecoder.decode(pair[1], StandardCharsets.UTF_8));
                }
            }
        }
        StringBuilder report = new StringBuilder();
        boolean failed = false;
        for (Map.Entry<String, HealthCheck> entry : checks.entrySet()) {
            if (excluded.remove(entry.getKey())) {
                report.append("[+]").append(entry.getKey()).append(" excluded: ok\n");
                continue;
            }
            String failure = failure(entry.getValue());
            if (failure == null) {
                report.append("[+]").append(entry.getKey()).append(" ok\n");
            } else {
                failed = true;
                report.append("[-]").append(entry.getKey()).append(" failed: ").append(verbose ? failure : "reason withheld").append('\n');
            }
        }
        for (String unknown : excluded) {
            report.append("warn: some health checks cannot be excluded: no matches for \"").append(unknown).append("\"\n");
        }
        if (failed) {
            LOG.debug("{} check failed: {}", kind, report.toString().replace('\n', ' '));
            return new HttpEndpoints.Response(500, "text/plain", report + kind + " check failed\n");
        }
        return new HttpEndpoints.Response(200, "text/plain", verbose ? report + kind + " check passed\n" : "ok");
    }

    private static String failure(HealthCheck check) {
        try {
            check.check();
            return null;
        } catch (Exception e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }

    @Override
    public void close() {
        http.close();
    }
}
