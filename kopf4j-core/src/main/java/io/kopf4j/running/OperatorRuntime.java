package io.kopf4j.running;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.HealthCheck;
import io.kopf4j.Memo;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.engines.activities.Activities;
import io.kopf4j.engines.activities.Login;
import io.kopf4j.engines.admission.AdmissionWebhooks;
import io.kopf4j.engines.daemons.DaemonsEngine;
import io.kopf4j.engines.indexing.IndexingEngine;
import io.kopf4j.engines.leadership.LeaderElection;
import io.kopf4j.engines.peering.PeeringEngine;
import io.kopf4j.engines.permissions.Preflight;
import io.kopf4j.engines.posting.EventPoster;
import io.kopf4j.engines.probing.Endpoints;
import io.kopf4j.engines.sharding.ShardingEngine;
import io.kopf4j.intents.ActivityHandler;
import io.kopf4j.intents.HandlerRegistry;
import io.kopf4j.reactor.Reactor;
import io.kopf4j.runtime.OperatorThreads;
import io.kopf4j.runtime.PodEnvironment;
import io.kopf4j.runtime.Versions;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engines of one running operator, started in order and stopped in the reverse order, as
 * Kopf's {@code kopf/_core/reactor/running.py} spawns and stops its tasks: the endpoints (first, to
 * answer probes at once), the startup activities, the login, the permission preflight, the poster
 * of Events, the reactor (the event's path), leader election, peering, sharding, the reactor's
 * watching, and the admission webhooks. The public {@code io.kopf4j.Operator} is its façade: the
 * builder and the lifecycle that users call.
 *
 * <pre>{@code
 * OperatorRuntime runtime = new OperatorRuntime(plan, threads, operator::fail);
 * runtime.start();   // returns once watching has started
 * ...
 * runtime.stop();    // handlers in flight finish (up to the grace period), then the reverse order
 * }</pre>
 */
public final class OperatorRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorRuntime.class);
    /** How long interrupted handlers may take to end before they are abandoned. */
    private static final Duration INTERRUPT_GRACE = Duration.ofSeconds(1);

    /**
     * What an operator was built with: its handlers, its cluster and its endpoints.
     *
     * @param id the operator's name in this JVM
     * @param kubeconfig the kubeconfig to log in with, or null for the default
     * @param context the kubeconfig's context, or null for its current one
     * @param client a client given by the application instead of a login, or null
     * @param livenessEndpoint Kopf's liveness endpoint, or null
     * @param healthProbeAddress where {@code /healthz} and {@code /readyz} listen, or null
     * @param metricsAddress where {@code /metrics} listens, or null
     * @param meterRegistry the application's own registry, or null
     */
    public record Plan(String id, HandlerRegistry registry, List<String> namespaces, Path kubeconfig, String context,
                       KubernetesClient client, OperatorSettings settings, Memo memo, URI livenessEndpoint,
                       String healthProbeAddress, Map<String, HealthCheck> livenessChecks,
                       Map<String, HealthCheck> readinessChecks, String metricsAddress, MeterRegistry meterRegistry) {
        /** Copies the lists and maps: the builder that made the plan may go on changing its own. */
        public Plan {
            namespaces = List.copyOf(namespaces);
            livenessChecks = new LinkedHashMap<>(livenessChecks);
            readinessChecks = new LinkedHashMap<>(readinessChecks);
        }
    }

    private final Plan plan;
    private final OperatorThreads threads;
    private final Consumer<OperatorException> failure;
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

    /**
     * @param threads the operator's threads, which the stop waits for
     * @param failure called when the operator cannot go on (its credentials are lost for good)
     */
    public OperatorRuntime(Plan plan, OperatorThreads threads, Consumer<OperatorException> failure) {
        this.plan = plan;
        this.threads = threads;
        this.failure = failure;
    }

    /**
     * Starts the engines in order; returns once watching has started.
     *
     * @throws OperatorException if a startup or login handler fails, a setting is invalid, or the
     *         cluster is unreachable; what started is left for {@link #stop()}
     * @throws InterruptedException if interrupted while starting
     */
    public void start() throws InterruptedException {
        OperatorSettings settings = plan.settings();
        HandlerRegistry registry = plan.registry();
        // Kopf's banner, as users' log filters know it; the version is kopf4j's.
        LOG.debug("Starting Kopf {}.", Versions.kopf4j().orElse("(unknown version)"));
        endpoints = new Endpoints(endpointsConfig(), this::runProbes, settings, () -> reactor, () -> {
            Login current = login;
            return current == null ? null : current.client();
        });
        Activities.run(ActivityHandler.STARTUP, registry.activities(ActivityHandler.STARTUP), settings, plan.memo());
        settings.validate();
        AdmissionWebhooks.verify(settings, registry);
        login = plan.client() != null ? Login.withClient(plan.client())
                : Login.run(registry.activities(ActivityHandler.AUTHENTICATION), plan.kubeconfig(), plan.context(), settings,
                        plan.memo(), threads, failure);
        if (settings.preflight.enabled) {
            Preflight.beforeWatching(login.client(), registry, settings, plan.namespaces());
        }
        poster = new EventPoster(login.client(), settings.posting, endpoints.metrics());
        reactor = new Reactor(login.client(), login.watchClient(), login.handlerClient(), registry, plan.namespaces(), threads,
                settings, plan.memo(), endpoints.metrics(), poster,
                DaemonsEngine.factory(registry, threads, settings, endpoints.metrics()),
                IndexingEngine.factory(registry, settings), failure);
        if (settings.leadership.enabled) {
            leadership = LeaderElection.start(login.client(), settings.leadership,
                    PodEnvironment.leaseNamespace(settings.leadership.leaseNamespace, plan.namespaces()),
                    reactor.orchestrator(), endpoints.metrics(), threads);
        }
        peering = PeeringEngine.start(login.client(), settings, plan.namespaces(), reactor.orchestrator(), threads,
                endpoints.metrics());
        if (settings.sharding.shards != null) {
            String group = settings.sharding.group != null ? settings.sharding.group
                    : ShardingEngine.defaultGroup(settings.persistence.finalizer, registry.selectors());
            sharding = ShardingEngine.start(login.client(), settings.sharding, group,
                    PodEnvironment.leaseNamespace(settings.sharding.namespace, plan.namespaces()), reactor.orchestrator(),
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
                reactor::recallMemo, failure);
        reactor.onRescan(admission::rescanned);
        LOG.info("Operator {} serves {} handler(s) {}", plan.id(), registry.size(),
                plan.namespaces().isEmpty() ? "cluster-wide" : "in namespaces " + plan.namespaces());
    }

    /**
     * The endpoints' configuration: the user's readiness checks come after {@code indexes-ready}
     * if the operator has indexes (complete, or not ready).
     */
    private Endpoints.Config endpointsConfig() {
        Map<String, HealthCheck> readiness = new LinkedHashMap<>();
        if (!plan.registry().indexingHandlers().isEmpty()) {
            readiness.put("indexes-ready", () -> {
                Reactor current = reactor;
                // A paused standby (leader election) builds no indexes, yet is ready: leadership gates work, not readiness.
                if (current == null || !current.indexed() && !current.orchestrator().paused()) {
                    throw new IllegalStateException("the indexes are not complete: the indexed resources are not listed yet");
                }
            });
        }
        readiness.putAll(plan.readinessChecks());
        return new Endpoints.Config(plan.livenessEndpoint(), plan.healthProbeAddress(), plan.livenessChecks(), readiness,
                plan.metricsAddress(), plan.meterRegistry());
    }

    /** The probe handlers, with the client for handlers once logged in (null before) and the indexes once watching. */
    private Map<String, Object> runProbes() throws InterruptedException {
        Login currentLogin = login;
        return Activities.run(ActivityHandler.PROBE, plan.registry().activities(ActivityHandler.PROBE), plan.settings(),
                plan.memo(), currentLogin == null ? null : currentLogin.handlerClient(), id -> {
                    Reactor current = reactor;
                    if (current == null) {
                        throw new IllegalStateException("the operator has not started its indexes yet");
                    }
                    return current.index(id);
                });
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
     * Waits until every watched resource has delivered its initial listing.
     *
     * @return true if all were listed in time; false if not, or if watching has not started
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public boolean awaitListed(Duration timeout) throws InterruptedException {
        Reactor current = reactor;
        return current != null && current.awaitListed(timeout);
    }

    /**
     * Stops what started, in the reverse order: peering and the reactor stop taking work, the
     * handlers in flight get the grace period (then an interruption), and only then do this replica's
     * shards, peers and Lease let others take over; the cleanup activities run last, before the
     * endpoints and the client close.
     */
    public void stop() {
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
            boolean handlersEnded = awaitHandlers();
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
                runCleanup();
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
        }
    }

    private boolean awaitHandlers() throws InterruptedException {
        Duration grace = plan.settings().process.shutdownGracePeriod;
        boolean handlersEnded = threads.awaitAll(System.nanoTime() + grace.toNanos());
        if (!handlersEnded) {
            LOG.warn("Operator {}: handlers still running {} s after the stop are interrupted", plan.id(),
                    grace.toMillis() / 1000.0);
            threads.interruptAll();
            handlersEnded = threads.awaitAll(System.nanoTime() + INTERRUPT_GRACE.toNanos());
        }
        return handlersEnded;
    }

    private void runCleanup() throws InterruptedException {
        try {
            Activities.run(ActivityHandler.CLEANUP, plan.registry().activities(ActivityHandler.CLEANUP), plan.settings(),
                    plan.memo(), login.handlerClient(), null);
        } catch (OperatorException e) {
            LOG.error("Cleanup failed: {}", e.getMessage());
        }
    }

    private void releaseLeadership() {
        if (leadership != null) {
            leadership.close();
        }
    }
}
