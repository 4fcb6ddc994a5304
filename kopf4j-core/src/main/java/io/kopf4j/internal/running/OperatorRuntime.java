package io.kopf4j.internal.running;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.HealthCheck;
import io.kopf4j.Memo;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.clients.ObjectPatcher;
import io.kopf4j.internal.engines.activities.Activities;
import io.kopf4j.internal.engines.activities.LifecycleActivities;
import io.kopf4j.internal.engines.activities.Login;
import io.kopf4j.internal.engines.admission.AdmissionWebhooks;
import io.kopf4j.internal.engines.children.ChildKinds;
import io.kopf4j.internal.engines.children.ChildrenEngine;
import io.kopf4j.internal.engines.conversion.ConversionWebhook;
import io.kopf4j.internal.engines.daemons.DaemonsEngine;
import io.kopf4j.internal.engines.indexing.IndexingEngine;
import io.kopf4j.internal.engines.leadership.LeaderElection;
import io.kopf4j.internal.engines.peering.PeeringEngine;
import io.kopf4j.internal.engines.permissions.ApiCatalog;
import io.kopf4j.internal.engines.permissions.Preflight;
import io.kopf4j.internal.engines.posting.EventPoster;
import io.kopf4j.internal.engines.probing.Endpoints;
import io.kopf4j.internal.engines.sharding.Ownership;
import io.kopf4j.internal.engines.sharding.ShardingEngine;
import io.kopf4j.internal.intents.ActivityHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.reactor.OperatorServices;
import io.kopf4j.internal.reactor.Reactor;
import io.kopf4j.internal.reactor.processing.Sharding;
import io.kopf4j.internal.runtime.Engine;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorChecks;
import io.kopf4j.internal.runtime.OperatorThreads;
import io.kopf4j.internal.runtime.PodEnvironment;
import io.kopf4j.internal.runtime.Versions;
import io.kopf4j.internal.selection.Selections;
import io.kopf4j.kits.webhooks.WebhookServerChoice;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root of one running operator, as controller-runtime's {@code Manager}: it builds
 * the operator's services in dependency order, each from what the earlier ones made, and starts the
 * engines in one order, the one of {@link #start()}, as Kopf's {@code kopf/_core/reactor/running.py}
 * spawns its tasks: the endpoints (first, to answer probes at once), the startup activities, the
 * login, the permission preflight, the poster of Events, the cleanup activities (which run at the
 * release), the indexes and the daemons, leader election, peering, sharding, the reactor's watching,
 * and the admission webhooks. Every engine has the same lifecycle ({@link Engine}): at the stop, all
 * stop taking work in the reverse order, the handlers in flight get their grace period, and all are
 * released in the reverse order. Each engine registers its own health and readiness checks. Adding
 * an engine is one class and one line in {@link #start()}. The public {@code io.kopf4j.Operator} is
 * its façade: the builder and the lifecycle that users call.
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
    private final OperatorChecks checks = new OperatorChecks();
    /** The engines started so far, in their order: the stop goes through them backwards. */
    private final List<Engine> started = new CopyOnWriteArrayList<>();

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
     * Builds the services and starts the engines, in this order; returns once watching has started.
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
        Reactor.expectChecks(checks, settings, registry);   // the endpoints answer before the reactor exists
        plan.livenessChecks().forEach(checks::liveness);
        plan.readinessChecks().forEach(checks::readiness);
        Endpoints endpoints = start(new Endpoints(endpointsConfig(), checks, this::runProbes, settings,
                () -> running(Login.class).map(Login::client).orElse(null)));
        OperatorServices services = new OperatorServices(registry, plan.namespaces(), settings, plan.memo(), threads,
                endpoints.metrics(), checks, failure);
        start(LifecycleActivities.startup(registry, settings, plan.memo()));
        settings.validate();
        Selections.of(settings.watching);   // a bad selector fails the start here, named, before anything watches
        ConversionWebhook.verify(registry);
        if (settings.admission.server == null && registry.needsWebhookServer()) {
            settings.admission.server = WebhookServerChoice.automatic();   // Kopf has no default: it fails the start
        }
        Login login = start(plan.client() != null ? Login.withClient(plan.client())
                : Login.run(registry.activities(ActivityHandler.AUTHENTICATION), plan.kubeconfig(), plan.context(), settings,
                        plan.memo(), threads, failure));
        if (settings.preflight.enabled) {
            start(new Preflight(login.client(), services));
        }
        EventPoster poster = start(new EventPoster(login.client(), settings.posting, endpoints.metrics()));
        start(LifecycleActivities.cleanup(registry, settings, plan.memo(), login.handlerClient()));
        ObjectPatcher patcher = new ObjectPatcher(login.client(), settings.networking.maxConcurrentRequests,
                ApiRetries.of(settings), endpoints.metrics());
        Execution withoutIndexes = execution(settings, endpoints.metrics(), poster, login.handlerClient());
        IndexingEngine indexes = start(new IndexingEngine(registry, withoutIndexes, settings.execution.defaultBackoff));
        Execution execution = withoutIndexes.withIndexes(indexes::index);   // the same limits: one semaphore
        DaemonsEngine daemons = start(new DaemonsEngine(registry, threads, settings, endpoints.metrics(), execution, patcher));
        ApiCatalog catalog = ApiCatalog.live(login.client(), ApiRetries.of(settings));
        ChildrenEngine children = start(new ChildrenEngine(login.client(), registry, plan.namespaces(),
                new ChildKinds.Discovery(catalog::resources, catalog::resolve, catalog.remedy()), execution, settings,
                endpoints.metrics(), threads, checks));
        Ownership ownership = settings.sharding.shards == null ? null : new Ownership(System::nanoTime);
        Reactor reactor = new Reactor(services, login.client(), login.watchClient(), poster, execution, patcher, daemons,
                children, indexes, ownership == null ? Sharding.ALL : ownership);
        if (settings.leadership.enabled) {
            start(LeaderElection.start(login.client(), settings.leadership,
                    PodEnvironment.leaseNamespace(settings.leadership.leaseNamespace, plan.namespaces()),
                    reactor.orchestrator(), endpoints.metrics(), threads));
        }
        start(PeeringEngine.start(login.client(), settings, plan.namespaces(), reactor.orchestrator(), threads,
                endpoints.metrics()));
        if (ownership != null) {
            String group = settings.sharding.group != null ? settings.sharding.group
                    : ShardingEngine.defaultGroup(settings.persistence.finalizer, registry.selectors());
            start(ShardingEngine.start(login.client(), settings.sharding, group,
                    PodEnvironment.leaseNamespace(settings.sharding.namespace, plan.namespaces()), ownership,
                    reactor.orchestrator(), endpoints.metrics()));
        }
        ConversionWebhook conversions = start(new ConversionWebhook(services, login.client()));
        reactor.onRescan(conversions::rescanned);
        if (settings.admission.server != null) {
            // Before the watches: those of a version stored as another need the conversion webhook to list.
            start(AdmissionWebhooks.start(services, login.client(), execution, reactor::recallMemo, reactor::onRescan,
                    conversions.requests(), conversions::configure));
        }
        start(reactor);
        LOG.info("Operator {} serves {} handler(s) {}", plan.id(), registry.size(),
                plan.namespaces().isEmpty() ? "cluster-wide" : "in namespaces " + plan.namespaces());
        // With --verbose: the ids, which name each handler's state on the objects and in tests (not built otherwise).
        if (LOG.isDebugEnabled()) {
            registry.listing().forEach(line -> LOG.debug("Handler {}", line));
        }
    }

    /** Starts an engine and lists it for the stop; returns it, for the engines built from it. */
    private <E extends Engine> E start(E engine) throws InterruptedException {
        started.add(engine);   // listed first: an engine that fails halfway is released with the others
        engine.start();
        return engine;
    }

    /** The running engine of a type, for what is asked of the operator while it starts (probes, addresses). */
    private <E extends Engine> Optional<E> running(Class<E> type) {
        return started.stream().filter(type::isInstance).map(type::cast).findFirst();
    }

    /** The execution of handlers: the handlers' client, Events, metrics, and the operator-wide limits and retries. */
    private static Execution execution(OperatorSettings settings, Metrics metrics, EventPoster poster,
                                       KubernetesClient handlerClient) {
        Semaphore handlerSlots = settings.execution.maxWorkers == null ? null
                : new Semaphore(settings.execution.maxWorkers, true);
        return new Execution(settings.execution.lifecycle, settings.execution.defaultBackoff,
                settings.persistence.progressStorage, metrics, handlerSlots, poster, handlerClient);
    }

    private Endpoints.Config endpointsConfig() {
        return new Endpoints.Config(plan.livenessEndpoint(), plan.healthProbeAddress(), plan.metricsAddress(),
                plan.meterRegistry());
    }

    /** The probe handlers, with the client for handlers once logged in (null before) and the indexes once built. */
    private Map<String, Object> runProbes() throws InterruptedException {
        return Activities.run(ActivityHandler.PROBE, plan.registry().activities(ActivityHandler.PROBE), plan.settings(),
                plan.memo(), running(Login.class).map(Login::handlerClient).orElse(null), id -> running(IndexingEngine.class)
                        .orElseThrow(() -> new IllegalStateException("the operator has not started its indexes yet"))
                        .index(id));
    }

    /** {@return the bound address of the health probes ({@code /healthz}, {@code /readyz}), or null} */
    public InetSocketAddress healthProbeAddress() {
        return running(Endpoints.class).map(Endpoints::healthProbeAddress).orElse(null);
    }

    /** {@return the bound address of {@code /metrics}, or null} */
    public InetSocketAddress metricsAddress() {
        return running(Endpoints.class).map(Endpoints::metricsAddress).orElse(null);
    }

    /** {@return the bound address of Kopf's liveness endpoint, or null} */
    public InetSocketAddress livenessAddress() {
        return running(Endpoints.class).map(Endpoints::livenessAddress).orElse(null);
    }

    /**
     * Waits until every watched resource has delivered its initial listing.
     *
     * @return true if all were listed in time; false if not, or if watching has not started
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public boolean awaitListed(Duration timeout) throws InterruptedException {
        Optional<Reactor> reactor = running(Reactor.class);
        return reactor.isPresent() && reactor.get().awaitListed(timeout);
    }

    /** The order in which the engines stop taking work: the reverse of their start, those that serve the API server last. */
    static List<Engine> stoppingOrder(List<Engine> started) {
        List<Engine> backwards = started.reversed();
        List<Engine> stopping = new ArrayList<>(backwards.stream().filter(engine -> !engine.servesApiServer()).toList());
        stopping.addAll(backwards.stream().filter(Engine::servesApiServer).toList());
        return stopping;
    }

    /**
     * Stops what started, in the reverse order, in two passes around the handlers' grace period:
     * first every engine stops taking work (the watching, peering's watchers, the daemons, and the
     * webhooks last, as before: they answer the API server's requests until then); the handlers in flight get the grace period (then an interruption); and only then is
     * every engine released, so that this replica's shards, peers and Lease let others take over only
     * once its handlers are done. The cleanup activities run before the poster's last Events are written
     * and the client and the endpoints close. An interruption of the stop shortens the wait, never the release.
     */
    public void stop() {
        List<Engine> backwards = started.reversed();
        for (Engine engine : stoppingOrder(started)) {
            try {
                engine.stopTakingWork();
            } catch (RuntimeException e) {
                LOG.error("Operator {}: {} could not stop taking work: {}", plan.id(), engine.getClass().getSimpleName(),
                        e.toString());
            }
        }
        boolean handlersEnded = false;
        boolean interrupted = false;
        try {
            handlersEnded = awaitHandlers();
        } catch (InterruptedException e) {
            interrupted = true;
        }
        for (Engine engine : backwards) {
            try {
                engine.release(handlersEnded);
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (RuntimeException e) {
                LOG.error("Operator {}: {} could not be released: {}", plan.id(), engine.getClass().getSimpleName(),
                        e.toString());
            }
        }
        started.clear();
        if (interrupted) {
            Thread.currentThread().interrupt();
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
}
