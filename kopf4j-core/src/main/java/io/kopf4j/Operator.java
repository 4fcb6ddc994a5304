package io.kopf4j;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.engines.activities.Activities;
import io.kopf4j.engines.activities.Login;
import io.kopf4j.engines.admission.AdmissionWebhooks;
import io.kopf4j.engines.leadership.LeaderElection;
import io.kopf4j.engines.permissions.Preflight;
import io.kopf4j.engines.probing.Endpoints;
import io.kopf4j.engines.posting.EventPoster;
import io.micrometer.core.instrument.MeterRegistry;
import io.kopf4j.intents.ActivityHandler;
import io.kopf4j.intents.HandlerRegistry;
import io.kopf4j.intents.HandlerScanner;
import io.kopf4j.runtime.OperatorThreads;
import io.kopf4j.runtime.Versions;
import io.kopf4j.runtime.PodEnvironment;
import io.kopf4j.reactor.Reactor;
import io.kopf4j.engines.peering.PeeringEngine;
import io.kopf4j.engines.daemons.DaemonsEngine;
import io.kopf4j.engines.indexing.IndexingEngine;
import io.kopf4j.engines.sharding.ShardingEngine;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator: handlers, the cluster they serve, and the machinery that runs them. Several can
 * run in one JVM; they share nothing.
 *
 * <pre>{@code
 * try (Operator operator = Operator.builder()
 *         .handlers(new Example())
 *         .namespaces("default")
 *         .build()) {
 *     operator.start();              // startup handlers, login, resources resolved, watching started
 *     operator.awaitTermination();   // until stop() or close() from another thread
 * }
 * }</pre>
 *
 * <p>Or in the background of an application, with a ready signal:
 *
 * <pre>{@code
 * Operator operator = Operator.builder().handlers(new Example()).namespaces("default").build();
 * Thread.ofVirtual().start(operator::run);                                  // start + await termination
 * operator.ready().toCompletableFuture().get(30, TimeUnit.SECONDS);        // it is watching now
 * ...
 * operator.stop();                                                          // the stop signal
 * operator.awaitTermination();
 * }</pre>
 */
public final class Operator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Operator.class);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    /** How long interrupted handlers may take to end before they are abandoned. */
    private static final Duration INTERRUPT_GRACE = Duration.ofSeconds(1);

    private final String id;
    private final HandlerRegistry registry;
    private final List<String> namespaces;
    private final Path kubeconfig;
    private final String context;
    private final KubernetesClient givenClient;
    private final OperatorSettings settings;
    private final Memo memo;
    private final OperatorThreads threads;
    private final Endpoints.Config endpointsConfig;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private volatile OperatorException failure;
    private volatile Endpoints endpoints;
    private volatile Login login;
    private volatile Reactor reactor;
    private volatile PeeringEngine peering;
    /** The admission webhooks: the server and the managed configurations, if configured. */
    private volatile AdmissionWebhooks admission;
    private volatile ShardingEngine sharding;
    /** The posting engine: Kubernetes Events from handlers and object loggers, sent in the background. */
    private volatile EventPoster poster;
    /** Leader election, if enabled: the reactor handles only while this replica holds the Lease. */
    private volatile LeaderElection leadership;
    private boolean started;
    private boolean stopped;

    private Operator(Builder builder) {
        this.id = "operator-" + SEQUENCE.incrementAndGet();
        this.registry = builder.registry;
        this.namespaces = List.copyOf(builder.namespaces);
        this.kubeconfig = builder.kubeconfig;
        this.context = builder.context;
        this.givenClient = builder.client;
        this.settings = builder.settings;
        this.memo = builder.memo;
        this.endpointsConfig = new Endpoints.Config(builder.livenessEndpoint, builder.healthProbeAddress,
                new LinkedHashMap<>(builder.livenessChecks), readinessChecks(builder), builder.metricsAddress,
                builder.meterRegistry);
        this.threads = new OperatorThreads(id);
    }

    /**
     * Starts describing an operator.
     *
     * @return a builder with Kopf's default settings, no handlers and no namespaces (cluster-wide)
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * This operator's settings: its own object, changed by startup handlers.
     *
     * @return the settings
     */
    public OperatorSettings settings() {
        return settings;
    }

    /** {@return a name unique in this JVM; log lines of this operator's threads carry it in the MDC} */
    public String id() {
        return id;
    }

    /** The user's readiness checks, after {@code indexes-ready} if the operator has indexes: complete, or not ready. */
    private Map<String, HealthCheck> readinessChecks(Builder builder) {
        Map<String, HealthCheck> checks = new LinkedHashMap<>();
        if (!builder.registry.indexingHandlers().isEmpty()) {
            checks.put("indexes-ready", () -> {
                Reactor current = reactor;
                // A paused standby (leader election) builds no indexes, yet is ready: leadership gates work, not readiness.
                if (current == null || !current.indexed() && !current.orchestrator().paused()) {
                    throw new IllegalStateException("the indexes are not complete: the indexed resources are not listed yet");
                }
            });
        }
        checks.putAll(builder.readinessChecks);
        return checks;
    }

    /**
     * Runs the startup handlers, checks the settings, logs in, resolves every handler's resource
     * through API discovery, and starts watching. Returns once watching has started; handling goes
     * on in the background. A resource that cannot be served (its CRD is missing, it is not
     * watchable or not patchable) is skipped with Kopf's warning, not an error: the readiness check
     * {@code resources-served} names it, and it is served once its CRD appears.
     *
     * @throws OperatorException if a startup or login handler fails, a setting is invalid, or the
     *         cluster is unreachable
     */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("operator " + id + " was already started");
        }
        started = true;
        // Kopf's banner, as users' log filters know it; the version is kopf4j's.
        LOG.debug("Starting Kopf {}.", Versions.kopf4j().orElse("(unknown version)"));
        try {
            endpoints = new Endpoints(endpointsConfig, registry.activities(ActivityHandler.PROBE), memo, settings,
                    () -> reactor, this::handlerClient);
            Activities.run(ActivityHandler.STARTUP, registry.activities(ActivityHandler.STARTUP), settings, memo);
            settings.validate();
            AdmissionWebhooks.verify(settings, registry);
            login = givenClient != null ? Login.withClient(givenClient)
                    : Login.run(registry.activities(ActivityHandler.AUTHENTICATION), kubeconfig, context, settings, memo,
                            threads, this::fail);
            if (settings.preflight.enabled) {
                Preflight.beforeWatching(login.client(), registry, settings, namespaces);
            }
            poster = new EventPoster(login.client(), settings.posting, endpoints.metrics());
            reactor = new Reactor(login.client(), login.watchClient(), login.handlerClient(), registry, namespaces, threads, settings, memo,
                    endpoints.metrics(), poster, DaemonsEngine.factory(registry, threads, settings, endpoints.metrics()),
                    IndexingEngine.factory(registry, settings), this::fail);
            if (settings.leadership.enabled) {
                leadership = LeaderElection.start(login.client(), settings.leadership,
                        PodEnvironment.leaseNamespace(settings.leadership.leaseNamespace, namespaces), reactor.orchestrator(),
                        endpoints.metrics(), threads);
            }
            peering = PeeringEngine.start(login.client(), settings, namespaces, reactor.orchestrator(), threads,
                    endpoints.metrics());
            if (settings.sharding.shards != null) {
                String group = settings.sharding.group != null ? settings.sharding.group
                        : ShardingEngine.defaultGroup(settings.persistence.finalizer, registry.selectors());
                sharding = ShardingEngine.start(login.client(), settings.sharding, group,
                        PodEnvironment.leaseNamespace(settings.sharding.namespace, namespaces), reactor.orchestrator(),
                        endpoints.metrics());
                reactor.shardWith(sharding.ownership());
            }
            reactor.start();
            if (settings.admission.server != null) {
                endpoints.addReadiness("webhook-server", () -> {
                    AdmissionWebhooks current = admission;
                    if (current == null || !current.ready()) {
                        throw new IllegalStateException("the webhook server is not listening with its certificate yet");
                    }
                });
            }
            admission = AdmissionWebhooks.start(settings, registry, login.client(), reactor.execution(),
                    reactor::recallMemo, this::fail);
            reactor.onRescan(admission::rescanned);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            OperatorException interrupted = new OperatorException("interrupted while starting", e);
            ready.completeExceptionally(interrupted);
            stop();
            throw interrupted;
        } catch (RuntimeException e) {
            ready.completeExceptionally(e);
            stop();
            throw e;
        }
        LOG.info("Operator {} serves {} handler(s) {}", id, registry.size(),
                namespaces.isEmpty() ? "cluster-wide" : "in namespaces " + namespaces);
        ready.complete(null);
    }

    /**
     * Starts the operator and blocks until it stops ({@link #stop()} from another thread), for an
     * application that runs it on a thread of its own.
     *
     * @throws OperatorException if it cannot start, or stopped because it failed (lost its login)
     */
    public void run() {
        start();
        try {
            awaitTermination();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * The ready signal: completes when {@link #start()} has finished (startup handlers done, logged
     * in, watching started), or exceptionally if the start failed.
     *
     * @return the signal
     */
    public CompletionStage<Void> ready() {
        return ready.minimalCompletionStage();
    }

    /** {@return why the operator stopped by itself (its credentials were lost for good), if it did} */
    public Optional<OperatorException> failure() {
        return Optional.ofNullable(failure);
    }

    /** The client for handlers once logged in; null before. */
    private KubernetesClient handlerClient() {
        Login current = login;
        return current == null ? null : current.handlerClient();
    }

    /** The operator cannot go on: it stops, and {@link #failure()} tells why. */
    private void fail(OperatorException cause) {
        failure = cause;
        LOG.error("The operator stops: {}", cause.getMessage());
        Thread.ofPlatform().name("kopf4j-stop").start(this::stop);
    }

    /** {@return the bound address of the health probes ({@code /healthz}, {@code /readyz}), or null} */
    public InetSocketAddress healthProbeAddress() {
        Endpoints current = endpoints;
        return current == null ? null : current.healthProbeAddress();
    }

    /** {@return the bound address of {@code /metrics}, or null} */
    public InetSocketAddress metricsAddress() {
        Endpoints current = endpoints;
        return current == null ? null : current.metricsAddress();
    }

    /** {@return the bound address of Kopf's liveness endpoint, or null} */
    public InetSocketAddress livenessAddress() {
        Endpoints current = endpoints;
        return current == null ? null : current.livenessAddress();
    }

    /**
     * Waits until every watched resource has delivered its initial listing (for tests and readiness).
     *
     * @param timeout how long to wait at most
     * @return true if all were listed in time; false if not, or if the operator was not started
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public boolean awaitListed(Duration timeout) throws InterruptedException {
        Reactor current;
        synchronized (this) {
            current = reactor;
        }
        return current != null && current.awaitListed(timeout);
    }

    /** Stops watching, lets handlers in flight finish (up to a few seconds), and releases the client. */
    public void stop() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            stopped = true;
        }
        shutdown();
    }

    /**
     * Blocks until the operator has stopped.
     *
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /**
     * Blocks until the operator has stopped or the timeout passes.
     *
     * @param timeout how long to wait at most
     * @return true if it stopped
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Stops the operator, as {@link #stop()}: for try-with-resources. */
    @Override
    public void close() {
        stop();
    }

    private void shutdown() {
        try {
            if (peering != null) {
                peering.stop();
            }
            if (reactor != null) {
                reactor.stop();
            }
            if (admission != null) {
                admission.close();
            }
            Duration grace = settings.process.shutdownGracePeriod;
            boolean handlersEnded = threads.awaitAll(System.nanoTime() + grace.toNanos());
            if (!handlersEnded) {
                LOG.warn("Operator {}: handlers still running {} s after the stop are interrupted", id, grace.toMillis() / 1000.0);
                threads.interruptAll();
                handlersEnded = threads.awaitAll(System.nanoTime() + INTERRUPT_GRACE.toNanos());
            }
            if (sharding != null) {
                // A handler that ignored its interruption may still run: its objects then wait for the Lease's expiry.
                sharding.close(handlersEnded);
                sharding = null;
            }
            if (peering != null) {
                peering.leave();   // only now: the peers that take over must not meet our handlers still running
            }
            releaseLeadership();   // only now: the successor must not handle beside our last handlers
            if (poster != null) {
                poster.close();
            }
            if (reactor != null) {
                try {
                    Activities.run(ActivityHandler.CLEANUP, registry.activities(ActivityHandler.CLEANUP), settings, memo,
                            login.handlerClient(), null);
                } catch (OperatorException e) {
                    LOG.error("Cleanup failed: {}", e.getMessage());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            releaseLeadership();   // at the latest (an interrupted shutdown), before the client closes
            if (endpoints != null) {
                endpoints.close();
            }
            if (sharding != null) {
                sharding.close(false);
            }
            if (login != null) {
                login.close();
            }
            ready.completeExceptionally(new OperatorException("operator " + id + " stopped before it was ready"));
            terminated.countDown();
        }
    }

    private void releaseLeadership() {
        if (leadership != null) {
            leadership.close();
        }
    }

    /** Collects handlers and connection settings; {@link #build()} validates every handler. */
    public static final class Builder {
        private final HandlerRegistry registry = new HandlerRegistry();
        private final List<String> namespaces = new ArrayList<>();
        private Path kubeconfig;
        private String context;
        private KubernetesClient client;
        private OperatorSettings settings = new OperatorSettings();
        private Memo memo = new Memo();
        private URI livenessEndpoint;
        private String healthProbeAddress;
        private final Map<String, HealthCheck> livenessChecks = new LinkedHashMap<>();
        private final Map<String, HealthCheck> readinessChecks = new LinkedHashMap<>();
        private String metricsAddress;
        private MeterRegistry meterRegistry;

        private Builder() {
        }

        /**
         * The settings; by default Kopf's defaults.
         *
         * @param operatorSettings the operator's own settings object
         * @return this builder
         */
        public Builder settings(OperatorSettings operatorSettings) {
            this.settings = Objects.requireNonNull(operatorSettings, "settings");
            return this;
        }

        /**
         * The operator's memo, copied for every object ({@link Memo#copyForObject()}).
         *
         * @param operatorMemo the memo; by default an empty one
         * @return this builder
         */
        public Builder memo(Memo operatorMemo) {
            this.memo = Objects.requireNonNull(operatorMemo, "memo");
            return this;
        }

        /**
         * Adds the annotated handler methods of each target: an instance, or a {@link Class} (static
         * methods, or instance methods on one instance made with its no-argument constructor).
         *
         * @param targets objects or classes with {@link On} methods
         * @return this builder
         * @throws InvalidHandlerException naming the method, if a handler is declared wrongly
         */
        public Builder handlers(Object... targets) {
            for (Object target : targets) {
                HandlerScanner.scan(Objects.requireNonNull(target, "handler target"), registry);
            }
            return this;
        }

        /**
         * Kopf's liveness endpoint, e.g. {@code http://0.0.0.0:8080/healthz}: the {@code @On.Probe}
         * results as JSON.
         *
         * @param endpoint the address and path to serve
         * @return this builder
         */
        public Builder liveness(URI endpoint) {
            this.livenessEndpoint = endpoint;
            return this;
        }

        /**
         * controller-runtime's {@code /healthz} and {@code /readyz}.
         *
         * @param bindAddress {@code HOST:PORT} or {@code :PORT}
         * @return this builder
         */
        public Builder healthProbeAddress(String bindAddress) {
            this.healthProbeAddress = bindAddress;
            return this;
        }

        /**
         * Serve {@code /metrics} in Prometheus' format.
         *
         * @param bindAddress {@code HOST:PORT} or {@code :PORT}
         * @return this builder
         */
        public Builder metricsAddress(String bindAddress) {
            this.metricsAddress = bindAddress;
            return this;
        }

        /**
         * Record the operator's metrics in the application's own Micrometer registry (too).
         *
         * @param registry the application's registry
         * @return this builder
         */
        public Builder meterRegistry(MeterRegistry registry) {
            this.meterRegistry = registry;
            return this;
        }

        /**
         * An extra check for {@code /healthz}: failing restarts the operator's pod.
         *
         * @param name the check's name in the probe's output
         * @param check the check
         * @return this builder
         */
        public Builder livenessCheck(String name, HealthCheck check) {
            livenessChecks.put(name, Objects.requireNonNull(check, "check"));
            return this;
        }

        /**
         * An extra check for {@code /readyz}: failing keeps the pod out of service and rollouts waiting.
         *
         * @param name the check's name in the probe's output
         * @param check the check
         * @return this builder
         */
        public Builder readinessCheck(String name, HealthCheck check) {
            readinessChecks.put(name, Objects.requireNonNull(check, "check"));
            return this;
        }

        /**
         * Adds operator-level handlers registered as functions: startup, cleanup, login, probe.
         *
         * @param activities the handlers
         * @return this builder
         */
        public Builder activity(Activity... activities) {
            for (Activity activity : activities) {
                activity.registerIn(registry);
            }
            return this;
        }

        /**
         * Adds handlers registered as functions.
         *
         * @param handlers the handlers
         * @return this builder
         */
        public Builder handler(Handler... handlers) {
            for (Handler handler : handlers) {
                handler.registerIn(registry);
            }
            return this;
        }

        /**
         * Serves the namespaces matching these patterns, as Kopf's {@code --namespace}: names, globs
         * ({@code dev-*}), comma-separated lists, negations ({@code !kube-system}). None means cluster-wide.
         *
         * @param names the patterns
         * @return this builder
         */
        public Builder namespaces(String... names) {
            namespaces.addAll(List.of(names));
            return this;
        }

        /**
         * As {@link #namespaces(String...)}.
         *
         * @param names the patterns
         * @return this builder
         */
        public Builder namespaces(List<String> names) {
            namespaces.addAll(names);
            return this;
        }

        /**
         * A kubeconfig file for the built-in login; by default the pod's service account, then
         * {@code KUBECONFIG} or {@code ~/.kube/config}. Not used with {@code @On.Login} handlers.
         *
         * @param path the file
         * @return this builder
         */
        public Builder kubeconfig(Path path) {
            this.kubeconfig = path;
            return this;
        }

        /**
         * A kubeconfig context for the built-in login; by default the current one.
         *
         * @param name the context's name
         * @return this builder
         */
        public Builder context(String name) {
            this.context = name;
            return this;
        }

        /**
         * Uses this client instead of logging in (no login handlers then); the caller closes it.
         * Its credentials are its own: kopf4j does not re-authenticate it.
         *
         * @param kubernetesClient a fabric8 client
         * @return this builder
         */
        public Builder client(KubernetesClient kubernetesClient) {
            this.client = kubernetesClient;
            return this;
        }

        /**
         * Builds the operator; it does nothing until {@link Operator#start()}.
         *
         * @return the operator
         * @throws InvalidHandlerException if there are no handlers, or login handlers and a given client
         */
        public Operator build() {
            if (registry.isEmpty()) {
                throw new InvalidHandlerException("no handlers: register at least one object or class with @On.* methods");
            }
            if (client != null && !registry.activities(ActivityHandler.AUTHENTICATION).isEmpty()) {
                throw new InvalidHandlerException("login handlers and a given client exclude each other: the client"
                        + " comes with its own credentials");
            }
            return new Operator(this);
        }
    }
}
