package io.kopf4j;

import io.kopf4j.storage.AnnotationPrefixes;
import io.kopf4j.storage.AnnotationsDiffBaseStorage;
import io.kopf4j.storage.DiffBaseStorage;
import io.kopf4j.storage.Finalizers;
import io.kopf4j.storage.MultiProgressStorage;
import io.kopf4j.storage.ProgressStorage;
import java.time.Duration;
import java.util.List;

/**
 * An operator's settings, grouped and named as Kopf's {@code kopf.OperatorSettings}, with Kopf's
 * defaults. Each operator has its own.
 *
 * <pre>{@code
 * OperatorSettings settings = new OperatorSettings();
 * settings.persistence.finalizer = "example.com/finalizer";
 * settings.execution.defaultBackoff = Duration.ofSeconds(10);
 * Operator.builder().settings(settings)...
 * }</pre>
 */
public final class OperatorSettings {
    public final Persistence persistence = new Persistence();
    public final Execution execution = new Execution();
    public final Queueing queueing = new Queueing();
    /** Kopf's deprecated name of {@link #queueing}: the same object. */
    @Deprecated
    public final Queueing batching = queueing;
    public final Watching watching = new Watching();
    public final Networking networking = new Networking();
    public final Process process = new Process();
    public final Probes probes = new Probes();
    public final Posting posting = new Posting();

    /** Where state is kept on the objects. */
    public static final class Persistence {
        /** The finalizer that holds objects until their delete handlers ran. */
        public String finalizer = Finalizers.DEFAULT;
        /** Handlers' progress: Kopf's default is annotations, plus status.kopf.progress read-only. */
        public ProgressStorage progressStorage = MultiProgressStorage.smart(AnnotationPrefixes.KOPF_PREFIX);
        /** The last handled state: Kopf's {@code last-handled-configuration} annotation. */
        public DiffBaseStorage diffbaseStorage = new AnnotationsDiffBaseStorage(AnnotationPrefixes.KOPF_PREFIX);
        /** How long to wait for the watch to deliver our own PATCH before assuming it; zero disables waiting. */
        public Duration consistencyTimeout = Duration.ofSeconds(5);
    }

    /** How handlers are run. */
    public static final class Execution {
        /** The delay before retrying a handler after an arbitrary exception, unless the handler sets one. */
        public Duration defaultBackoff = Duration.ofSeconds(60);
        /** Which pending handlers run per handling cycle: Kopf's {@code asap} by default. */
        public Lifecycle lifecycle = Lifecycles.asap();
    }

    /** Kubernetes Events about the objects. */
    public static final class Posting {
        /** Post events at all: the object loggers' messages and explicit ones. */
        public boolean enabled = true;
        /** The lowest level of object log messages posted as events (explicit events are always posted). */
        public org.slf4j.event.Level level = org.slf4j.event.Level.INFO;
        /** The events' {@code reportingComponent} and {@code source.component}. */
        public String reportingComponent = "kopf";
        /** The events' {@code reportingInstance}. */
        public String reportingInstance = "dev";
        /** The events' {@code metadata.generateName}. */
        public String eventNamePrefix = "kopf-event-";
    }

    /** Health probes. */
    public static final class Probes {
        /** How long the results of {@code @On.Probe} handlers are reused: Kopf's 10 seconds. */
        public Duration livenessCache = Duration.ofSeconds(10);
        /**
         * With a value, {@code /healthz} also fails ({@code progress}) when events have waited this
         * long without any being processed; off by default, as Kopf.
         */
        public Duration progressTimeout = null;
    }

    /** The operator's own lifecycle. */
    public static final class Process {
        /**
         * At shutdown, how long handlers in flight may take to finish; then they are interrupted,
         * and those that ignore it are abandoned after one more second.
         */
        public Duration shutdownGracePeriod = Duration.ofSeconds(5);
    }

    /** Requests to the API server. */
    public static final class Networking {
        /**
         * Waits between retries of a failed API request (connection errors, timeouts, HTTP 5xx, 403
         * and 429); other errors fail at once. Any re-iterable sequence, infinite ones included; an
         * empty one disables retrying. Kopf's default: about a minute of attempts.
         */
        public Iterable<Duration> errorBackoffs = List.of(1, 1, 2, 3, 5, 8, 13, 21).stream().map(Duration::ofSeconds).toList();
        /** Wait exactly as long as a 429's Retry-After says (by default: the longer of it and the own backoff). */
        public boolean enforceRetryAfter = false;
        /** Total time for one request (not for watches). */
        public Duration requestTimeout = Duration.ofSeconds(300);
        /** Time to establish a connection; null: the client's default. */
        public Duration connectTimeout = null;

        /**
         * How many requests that change objects may be in flight at once; more wait their turn. A
         * burst of thousands of objects then queues in the operator instead of failing.
         */
        public int maxConcurrentRequests = 64;
    }

    /** Watch streams. */
    public static final class Watching {
        /** How long the server keeps a watch open before closing it gracefully ({@code timeoutSeconds}); null: the server's choice. */
        public Duration serverTimeout = null;
        /** How long a watch may last before the operator closes and resumes it; null: forever. */
        public Duration clientTimeout = null;
        /** The TCP connect timeout of watches; null: {@code networking.connectTimeout}, then {@code networking.requestTimeout}. */
        public Duration connectTimeout = null;
        /** The pause between watch requests, so that errors and disconnects do not flood the API server. */
        public Duration reconnectBackoff = Duration.ofMillis(100);
        /**
         * Reconnect a watch stream that delivered nothing, not even a bookmark, for this long: the
         * fix for streams that silently stop behind load balancers.
         */
        public Duration inactivityTimeout = Duration.ofSeconds(70);
        /** Objects per page of the initial listing (and re-listings): large collections come in pages. */
        public int listPageSize = 500;
    }

    /** Per-object queues. */
    public static final class Queueing {
        /** A per-object worker exits after this long without events. */
        public Duration idleTimeout = Duration.ofSeconds(5);
        /** Delays after unexpected errors in an object's processing; the last one repeats. */
        public List<Duration> errorDelays = List.of(1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610)
                .stream().map(Duration::ofSeconds).toList();
    }
}
