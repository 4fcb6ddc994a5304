package io.kopf4j;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.internal.intents.ActivityHandler;
import io.kopf4j.internal.intents.ConversionHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerScanner;
import io.kopf4j.internal.intents.HandlerSpec;
import io.kopf4j.internal.running.OperatorRuntime;
import io.kopf4j.internal.runtime.OperatorThreads;
import io.micrometer.core.instrument.MeterRegistry;
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

    private final String id;
    private final OperatorSettings settings;
    /** The engines, started in order and stopped in reverse: the story of a start and a stop is there. */
    private final OperatorRuntime runtime;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private volatile OperatorException failure;
    private boolean started;
    private boolean stopped;

    private Operator(Builder builder) {
        this.id = "operator-" + SEQUENCE.incrementAndGet();
        this.settings = builder.settings;
        OperatorRuntime.Plan plan = new OperatorRuntime.Plan(id, builder.registry, builder.namespaces, builder.kubeconfig,
                builder.context, builder.client, builder.settings, builder.memo, builder.livenessEndpoint,
                builder.healthProbeAddress, builder.livenessChecks, builder.readinessChecks, builder.metricsAddress,
                builder.meterRegistry);
        this.runtime = new OperatorRuntime(plan, new OperatorThreads(id), this::fail);
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
        try {
            runtime.start();
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

    /** The operator cannot go on: it stops, and {@link #failure()} tells why. */
    private void fail(OperatorException cause) {
        failure = cause;
        LOG.error("The operator stops: {}", cause.getMessage());
        Thread.ofPlatform().name("kopf4j-stop").start(this::stop);
    }

    /** {@return the bound address of the health probes ({@code /healthz}, {@code /readyz}), or null} */
    public InetSocketAddress healthProbeAddress() {
        return runtime.healthProbeAddress();
    }

    /** {@return the bound address of {@code /metrics}, or null} */
    public InetSocketAddress metricsAddress() {
        return runtime.metricsAddress();
    }

    /** {@return the bound address of Kopf's liveness endpoint, or null} */
    public InetSocketAddress livenessAddress() {
        return runtime.livenessAddress();
    }

    /**
     * Waits until every watched resource has delivered its initial listing (for tests and readiness).
     *
     * @param timeout how long to wait at most
     * @return true if all were listed in time; false if not, or if the operator was not started
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public boolean awaitListed(Duration timeout) throws InterruptedException {
        return runtime.awaitListed(timeout);
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
            runtime.stop();
        } finally {
            ready.completeExceptionally(new OperatorException("operator " + id + " stopped before it was ready"));
            terminated.countDown();
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
         * @throws InvalidHandlerException if a handler's options break Kopf's rules, naming the handler and the rule
         */
        public Builder activity(Activity... activities) {
            for (Activity activity : activities) {
                registry.add(HandlerSpec.described(activity.description()).activity(activity.function()));
            }
            return this;
        }

        /**
         * Adds handlers registered as functions.
         *
         * @param handlers the handlers
         * @return this builder
         * @throws InvalidHandlerException if a handler's options break Kopf's rules, naming the handler and the rule
         */
        public Builder handler(Handler... handlers) {
            for (Handler handler : handlers) {
                HandlerSpec.described(handler.description()).register(handler.function(), registry);
            }
            return this;
        }

        /**
         * Adds conversions between versions of custom resources, as lambdas ({@link On.Convert} as methods).
         *
         * @param conversions e.g. {@code Conversion.of(v1alpha1.Widget.class, v1.Widget.class, Widgets::up)}
         * @return this builder
         * @throws InvalidHandlerException if one is not between two versions of one kind, or repeats another
         */
        public Builder conversions(Conversion<?, ?>... conversions) {
            for (Conversion<?, ?> conversion : conversions) {
                registry.add(ConversionHandler.of(conversion, "Conversion.of(" + conversion.from().getSimpleName() + ", "
                        + conversion.to().getSimpleName() + ")"));
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
