package io.kopf4j.runtime;

import io.kopf4j.Resource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The operator's metrics (Kopf has none), recorded through Micrometer: handlers, queues, watches
 * and API requests. Names and tags are listed in docs/metrics.md. Without a registry the meters
 * cost next to nothing (an empty composite registry).
 */
public final class Metrics {
    private final MeterRegistry registry;

    public Metrics(MeterRegistry registry) {
        this.registry = registry == null ? new CompositeMeterRegistry() : registry;
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** A handler ended: outcome is success, temporary, permanent or exception. */
    public void handler(String id, String outcome, Duration duration) {
        Counter.builder("kopf4j.handler.invocations").description("Handler invocations by handler id and outcome")
                .tag("handler", id).tag("outcome", outcome).register(registry).increment();
        Timer.builder("kopf4j.handler.duration").description("Handler run time").tag("handler", id)
                .publishPercentileHistogram().register(registry).record(duration);
    }

    /** An event waited this long in its object's queue before being processed. */
    public void queueWait(Resource resource, Duration wait) {
        Timer.builder("kopf4j.queue.wait").description("Time events wait in their object's queue")
                .tag("resource", resource.toString()).register(registry).record(wait);
    }

    public void watchEvent(Resource resource, String type) {
        Counter.builder("kopf4j.watch.events").description("Watch events received, the initial listing as LISTED")
                .tag("resource", resource.toString()).tag("type", type == null ? "LISTED" : type)
                .register(registry).increment();
    }

    /** A watch was started again: reason is gone (410), error, inactivity or timeout. */
    public void watchRestart(Resource resource, String reason) {
        Counter.builder("kopf4j.watch.restarts").description("Watch streams started again, by reason")
                .tag("resource", resource.toString()).tag("reason", reason).register(registry).increment();
    }

    /** An API request ended with this HTTP status (0 for no response). */
    public void apiRequest(String verb, int status, Duration duration) {
        Timer.builder("kopf4j.api.requests").description("API requests of the operator by verb and status code")
                .tag("verb", verb).tag("code", String.valueOf(status)).register(registry).record(duration);
    }

    /** Gauges read on every scrape: events waiting, objects held in memory. */
    public void gauges(Supplier<Number> waitingEvents, Supplier<Number> objects) {
        // Strong references: Micrometer holds a gauge's object weakly, and nothing else holds these lambdas.
        Gauge.builder("kopf4j.queue.depth", waitingEvents).strongReference(true).register(registry);
        Gauge.builder("kopf4j.objects", objects).strongReference(true).register(registry);
    }
}
