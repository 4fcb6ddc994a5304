package io.kopf4j.internal.runtime;

import io.kopf4j.Resource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The operator's metrics (Kopf has none), recorded through Micrometer: handlers, queues, watches,
 * API requests, daemons and timers, Kubernetes Events. Names and tags are listed in
 * docs/metrics.md. Without a registry the meters cost next to nothing (an empty composite registry).
 *
 * <pre>{@code
 * Metrics metrics = new Metrics(new SimpleMeterRegistry());
 * metrics.handler("create", "success", Duration.ofMillis(12));
 * }</pre>
 */
public final class Metrics {
    private final MeterRegistry registry;
    private final Map<String, AtomicInteger> runningDaemons = new ConcurrentHashMap<>();

    /**
     * Records into this registry.
     *
     * @param registry e.g. the operator's Prometheus registry; null records nowhere (an empty composite registry)
     */
    public Metrics(MeterRegistry registry) {
        this.registry = registry == null ? new CompositeMeterRegistry() : registry;
    }

    /** {@return the registry the meters are in: the one given, or the empty composite one for null} */
    public MeterRegistry registry() {
        return registry;
    }

    /**
     * A handler ended: outcome is success, temporary, permanent or exception.
     *
     * @param id the handler's id, e.g. {@code "create"} (the {@code handler} tag)
     * @param outcome the {@code outcome} tag: {@code success}, {@code temporary}, {@code permanent} or
     *     {@code exception}
     * @param duration the run time of this invocation
     */
    public void handler(String id, String outcome, Duration duration) {
        Counter.builder("kopf4j.handler.invocations").description("Handler invocations by handler id and outcome")
                .tag("handler", id).tag("outcome", outcome).register(registry).increment();
        Timer.builder("kopf4j.handler.duration").description("Handler run time").tag("handler", id)
                .publishPercentileHistogram().register(registry).record(duration);
    }

    /**
     * An event waited this long in its object's queue before being processed.
     *
     * @param resource the watched resource (the {@code resource} tag)
     * @param wait the time from the event's arrival to the start of its processing
     */
    public void queueWait(Resource resource, Duration wait) {
        Timer.builder("kopf4j.queue.wait").description("Time events wait in their object's queue")
                .tag("resource", resource.toString()).register(registry).record(wait);
    }

    /**
     * A watch event arrived, counted by resource and type.
     *
     * @param resource the watched resource (the {@code resource} tag)
     * @param type {@code ADDED}, {@code MODIFIED} or {@code DELETED}; null for the initial listing, tagged
     *     {@code LISTED}
     */
    public void watchEvent(Resource resource, String type) {
        Counter.builder("kopf4j.watch.events").description("Watch events received, the initial listing as LISTED")
                .tag("resource", resource.toString()).tag("type", type == null ? "LISTED" : type)
                .register(registry).increment();
    }

    /**
     * A watch was started again: reason is gone (410), error, inactivity, timeout, or ended (by the server).
     *
     * @param resource the watched resource (the {@code resource} tag)
     * @param reason the {@code reason} tag, e.g. {@code gone}
     */
    public void watchRestart(Resource resource, String reason) {
        Counter.builder("kopf4j.watch.restarts").description("Watch streams started again, by reason")
                .tag("resource", resource.toString()).tag("reason", reason).register(registry).increment();
    }

    /**
     * An object of a listing or a watch-event was skipped because it cannot be read (nested too deep
     * for the parser, say): counted at every event, reported in the log once per version.
     *
     * @param resource the watched resource (the {@code resource} tag)
     */
    public void unreadableObject(Resource resource) {
        Counter.builder("kopf4j.watch.unreadable").description("Objects skipped because they cannot be read, by resource")
                .tag("resource", resource.toString()).register(registry).increment();
    }

    /**
     * An API request ended with this HTTP status (0 for no response).
     *
     * @param verb the HTTP method, e.g. {@code PATCH}
     * @param status the HTTP status code, e.g. {@code 200}; 0 when no response came
     * @param duration the time from the request to its response or failure
     */
    public void apiRequest(String verb, int status, Duration duration) {
        Timer.builder("kopf4j.api.requests").description("API requests of the operator by verb and status code")
                .tag("verb", verb).tag("code", String.valueOf(status)).register(registry).record(duration);
    }

    /**
     * Gauges read on every scrape: events waiting, objects held in memory.
     *
     * @param waitingEvents gives the count of events waiting in all objects' queues
     * @param objects gives the count of objects the operator holds in memory
     */
    public void gauges(Supplier<Number> waitingEvents, Supplier<Number> objects) {
        // Strong references: Micrometer holds a gauge's object weakly, and nothing else holds these lambdas.
        Gauge.builder("kopf4j.queue.depth", waitingEvents).strongReference(true).register(registry);
        Gauge.builder("kopf4j.objects", objects).strongReference(true).register(registry);
    }

    /**
     * The count of running daemons or timers of one handler ({@code kind} = daemon, timer): one gauge
     * per handler, never per object, incremented and decremented by the daemons engine.
     *
     * @param kind {@code daemon} or {@code timer}
     * @param handler the handler's id, e.g. {@code "monitor"}
     * @return the gauge's counter, the same one for every call with the same kind and handler
     */
    public AtomicInteger daemonsRunning(String kind, String handler) {
        return runningDaemons.computeIfAbsent(kind + "/" + handler, key -> {
            AtomicInteger count = new AtomicInteger();
            Gauge.builder("kopf4j.daemons.running", count, AtomicInteger::get).tag("kind", kind).tag("handler", handler)
                    .strongReference(true).register(registry);
            return count;
        });
    }

    /**
     * A daemon or timer called again after a failure ({@code cause} = temporary, exception).
     *
     * @param handler the handler's id, e.g. {@code "monitor"}
     * @param cause the {@code cause} tag: {@code temporary} or {@code exception}
     */
    public void daemonRestart(String handler, String cause) {
        Counter.builder("kopf4j.daemons.restarts").tag("handler", handler).tag("cause", cause)
                .register(registry).increment();
    }

    /**
     * How a stop ended ({@code reason} = resource_deleted, filters_mismatch, ...; {@code outcome} = exited,
     * abandoned).
     *
     * @param kind {@code daemon} or {@code timer}
     * @param reason the {@code reason} tag, e.g. {@code resource_deleted}
     * @param outcome the {@code outcome} tag: {@code exited} or {@code abandoned}
     */
    public void daemonStop(String kind, String reason, String outcome) {
        Counter.builder("kopf4j.daemons.stops").tag("kind", kind).tag("reason", reason).tag("outcome", outcome)
                .register(registry).increment();
    }

    /**
     * Whether this replica leads (1) or stands by (0), read on every scrape: one gauge per Lease.
     *
     * @param lease the Lease, as {@code namespace/name}
     * @param leading gives 1 while this replica leads, 0 while it stands by
     */
    public void leader(String lease, Supplier<Number> leading) {
        Gauge.builder("kopf4j.leader", leading).description("1 while this replica holds the leader Lease, else 0")
                .tag("lease", lease).strongReference(true).register(registry);
    }

    /**
     * This replica became the leader ({@code change} = acquired) or stopped being it (lost, released).
     *
     * @param lease the Lease, as {@code namespace/name}
     * @param change the {@code change} tag: {@code acquired}, {@code lost} or {@code released}
     */
    public void leadershipChange(String lease, String change) {
        Counter.builder("kopf4j.leadership.changes").description("Leadership acquired, lost or released by this replica")
                .tag("lease", lease).tag("change", change).register(registry).increment();
    }

    /**
     * How late a timer's run started, after the moment it was planned for.
     *
     * @param handler the timer's id, e.g. {@code "heartbeat"}
     * @param lag the delay of the run's start past its planned moment
     */
    public void timerLag(String handler, Duration lag) {
        Timer.builder("kopf4j.timer.lag").tag("handler", handler).publishPercentileHistogram().register(registry)
                .record(lag);
    }

    /**
     * A child written by the children engine: {@code apply} (created or changed) or {@code delete}
     * (no longer returned). At rest it stays flat: children whose applied fields did not change cost no write.
     *
     * @param write the {@code write} tag: {@code apply} or {@code delete}
     */
    public void childWrite(String write) {
        Counter.builder("kopf4j.children.writes").description("Children applied or deleted, by write")
                .tag("write", write).register(registry).increment();
    }

    /**
     * A Kubernetes Event written: {@code verb} = POST (a new Event) or PATCH (a new count of a posted one).
     *
     * @param verb the {@code verb} tag: {@code POST} or {@code PATCH}
     */
    public void eventPosted(String verb) {
        Counter.builder("kopf4j.events.posted").description("Kubernetes Events written, by verb")
                .tag("verb", verb).register(registry).increment();
    }

    /** An event counted into another's write (a repeat of a posted Event, combined similar ones), not written by itself. */
    public void eventAggregated() {
        Counter.builder("kopf4j.events.aggregated").description("Events counted into an Event written for others")
                .register(registry).increment();
    }

    /** An event dropped: {@code settings.posting.queueSize} Events were waiting to be written. */
    public void eventDropped() {
        Counter.builder("kopf4j.events.dropped").description("Events dropped because the queue of Events to write was full")
                .register(registry).increment();
    }

    /**
     * Sharding: the members of the view this replica has agreed on, read on every scrape.
     *
     * @param members gives the count of members in the agreed view, this replica included
     */
    public void shardMembers(Supplier<Number> members) {
        Gauge.builder("kopf4j.shard.members", members).description("Members of the agreed shard view")
                .strongReference(true).register(registry);
    }

    /** Sharding: a new view was agreed on (a member joined or left, so objects moved). */
    public void shardView() {
        Counter.builder("kopf4j.shard.views").description("Shard views agreed on since the start")
                .register(registry).increment();
    }
}
