package io.kopf4j.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * The operator's requests to the followed resources: the API server's counts
 * ({@link ApiRequests#fromMetrics}) less the benchmark's own ({@link DriverRequests}), and the
 * wait until the operator has settled, i.e. made no request for two polls in a row.
 *
 * <pre>{@code
 * ApiRequests before = requests.now();
 * long handledAt = ...;
 * double settleSeconds = requests.settle(handledAt);
 * ApiRequests perObject = requests.now().minus(before).dividedBy(n);
 * }</pre>
 */
final class OperatorRequests {
    private static final Duration SETTLE_POLL = Duration.ofMillis(500);
    private static final Duration SETTLE_LIMIT = Duration.ofMinutes(2);

    private final KubernetesClient client;
    private final DriverRequests driver;
    private final Predicate<String> resources;
    private final Predicate<String> keys;

    OperatorRequests(KubernetesClient client, DriverRequests driver) {
        this(client, driver, ApiRequests.RESOURCES::contains, key -> true);
    }

    /**
     * Counting the requests to any resource (not to non-resource paths such as discovery and
     * {@code /metrics}) whose key passes, e.g. not {@code "GET services"}: only where the benchmark
     * makes requests to none but the followed resources ({@link ApiRequests#RESOURCES}) while it
     * measures, since it counts its own only to those.
     */
    OperatorRequests(KubernetesClient client, DriverRequests driver, Predicate<String> keys) {
        this(client, driver, resource -> !resource.isEmpty(), keys);
    }

    private OperatorRequests(KubernetesClient client, DriverRequests driver, Predicate<String> resources, Predicate<String> keys) {
        this.client = client;
        this.driver = driver;
        this.resources = resources;
        this.keys = keys;
    }

    /** All requests to the resources counted so far, less the benchmark's own. */
    ApiRequests now() {
        return ApiRequests.fromMetrics(client.raw("/metrics"), "apiserver_request_total", resources).only(keys).minus(driver.snapshot());
    }

    /** The benchmark's own requests so far. */
    ApiRequests own() {
        return driver.snapshot();
    }

    /**
     * Polls the operator's requests until two polls in a row show none (at most 2 minutes);
     * returns how long after {@code handledAt} ({@link System#nanoTime()}) the last one was seen,
     * to the poll's half second.
     */
    double settle(long handledAt) throws InterruptedException {
        ApiRequests previous = now();
        long lastChange = handledAt;
        int quietPolls = 0;
        while (quietPolls < 2 && System.nanoTime() - handledAt < SETTLE_LIMIT.toNanos()) {
            Thread.sleep(SETTLE_POLL);
            ApiRequests current = now();
            if (current.equals(previous)) {
                quietPolls++;
            } else {
                quietPolls = 0;
                lastChange = System.nanoTime();
                previous = current;
            }
        }
        return (lastChange - handledAt) / 1e9;
    }
}
