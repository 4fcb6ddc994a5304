package io.kopf4j.bench;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Request counts keyed as {@code "VERB resource"} or {@code "VERB resource/subresource"}, e.g.
 * {@code "PATCH kopfexamples/status"}, for the resources the benchmark follows: the kopfexamples,
 * the (Kubernetes) events, the kinds of the children benchmark's children, and the big-cluster
 * benchmark's pods. The API server's own count comes from its {@code /metrics}
 * ({@code apiserver_request_total}, summed over response codes); note that it counts a request
 * when it ends, so a WATCH only when it is closed.
 *
 * <pre>{@code
 * ApiRequests operator = ApiRequests.fromMetrics(client.raw("/metrics")).minus(driver.snapshot());
 * ApiRequests perObject = operator.minus(before).dividedBy(1000);
 * }</pre>
 */
record ApiRequests(Map<String, Double> counts) {
    static final Set<String> RESOURCES = Set.of("kopfexamples", "events", "configmaps", "deployments", "services", "pods");
    /** APPLY: a server-side apply, a PATCH that the API server counts apart (JOSDK's status patches). */
    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "APPLY", "DELETE", "DELETECOLLECTION");

    ApiRequests {
        counts = Map.copyOf(counts);
    }

    static ApiRequests none() {
        return new ApiRequests(Map.of());
    }

    /** The followed resources' counts in the API server's metrics text. */
    static ApiRequests fromMetrics(String metrics) {
        return fromMetrics(metrics, "apiserver_request_total", RESOURCES::contains);
    }

    /**
     * A metric of the API server's by verb and resource, summed over its other labels, for the
     * resources chosen: {@code apiserver_request_total} (requests), or
     * {@code apiserver_response_sizes_sum} (the bytes of the answers to GET and LIST).
     */
    static ApiRequests fromMetrics(String metrics, String metric, Predicate<String> resources) {
        Map<String, Double> counts = new TreeMap<>();
        for (PrometheusText.Sample sample : PrometheusText.samples(metrics, metric)) {
            String resource = sample.labels().getOrDefault("resource", "");
            if (resources.test(resource)) {
                String subresource = sample.labels().getOrDefault("subresource", "");
                counts.merge(key(sample.labels().get("verb"), resource, subresource), sample.value(), Double::sum);
            }
        }
        return new ApiRequests(counts);
    }

    static String key(String verb, String resource, String subresource) {
        return verb + " " + resource + (subresource.isEmpty() ? "" : "/" + subresource);
    }

    ApiRequests minus(ApiRequests other) {
        Map<String, Double> difference = new TreeMap<>(counts);
        other.counts.forEach((key, count) -> difference.merge(key, -count, Double::sum));
        return new ApiRequests(difference);
    }

    ApiRequests dividedBy(double divisor) {
        Map<String, Double> quotients = new TreeMap<>();
        counts.forEach((key, count) -> quotients.put(key, count / divisor));
        return new ApiRequests(quotients);
    }

    double get(String key) {
        return counts.getOrDefault(key, 0.0);
    }

    /** The writes (POST, PUT, PATCH, APPLY, DELETE) to the kopfexamples and their subresources. */
    ApiRequests objectWrites() {
        return only(key -> WRITES.contains(verb(key)) && key.contains(" kopfexamples"));
    }

    /** The writes (POST, PUT, PATCH, APPLY, DELETE) to every followed resource. */
    ApiRequests writes() {
        return only(key -> WRITES.contains(verb(key)));
    }

    /** The writes to the (Kubernetes) events: POST (new Events) and PATCH (their counts). */
    ApiRequests eventWrites() {
        return only(key -> WRITES.contains(verb(key)) && key.endsWith(" events"));
    }

    double total() {
        return counts.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** E.g. {@code "PATCH kopfexamples 1.00, PATCH kopfexamples/status 1.00"}; counts near zero are left out. */
    String format() {
        return format("%.2f");
    }

    /** The counts with this format, e.g. {@code "%.0f"}; those that it shows as zero are left out. */
    String format(String countFormat) {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(counts).forEach((key, count) -> {
            String shown = String.format(Locale.ROOT, countFormat, count);
            if (!shown.matches("-?[0.]+")) {
                text.append(text.isEmpty() ? "" : ", ").append(key).append(' ').append(shown);
            }
        });
        return text.isEmpty() ? "none" : text.toString();
    }

    /** Those whose key (e.g. {@code "PATCH pods"}) passes. */
    ApiRequests only(Predicate<String> keys) {
        Map<String, Double> kept = new TreeMap<>();
        counts.forEach((key, count) -> {
            if (keys.test(key)) {
                kept.put(key, count);
            }
        });
        return new ApiRequests(kept);
    }

    private static String verb(String key) {
        return key.substring(0, key.indexOf(' '));
    }
}
