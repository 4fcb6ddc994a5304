package io.kopf4j.internal.reactor;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Memo;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.clients.ObjectPatcher;
import io.kopf4j.internal.intents.ChangingHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.logging.EventSink;
import io.kopf4j.internal.reactor.observation.Observer;
import io.kopf4j.internal.reactor.orchestration.Orchestrator;
import io.kopf4j.internal.reactor.processing.Childing;
import io.kopf4j.internal.reactor.processing.IndexesBarrier;
import io.kopf4j.internal.reactor.processing.Indexing;
import io.kopf4j.internal.reactor.processing.ResourceProcessor;
import io.kopf4j.internal.reactor.processing.SelectionExits;
import io.kopf4j.internal.reactor.processing.Sharding;
import io.kopf4j.internal.reactor.processing.Spawning;
import io.kopf4j.internal.reactor.queueing.ObjectQueues;
import io.kopf4j.internal.reactor.queueing.Progress;
import io.kopf4j.internal.runtime.Engine;
import io.kopf4j.internal.runtime.OperatorChecks;
import io.kopf4j.internal.runtime.OutOfMemory;
import io.kopf4j.internal.selection.Selections;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The running operator's machinery, wired top to bottom as an event travels: observation (what to
 * serve) → orchestration (one watcher per resource and namespace, pausable) → queueing (per-object
 * queues) → processing (causes, handlers, state, patch). The engines beside the flow are given to it
 * built (the execution of handlers, the daemons and timers, the indexes, the sharding's ownership);
 * it never knows them. As an engine, it starts watching and, at the stop, stops taking events.
 *
 * <pre>{@code
 * Reactor.expectChecks(checks, settings, registry);   // before it exists: not ready
 * Reactor reactor = new Reactor(services, client, watchClient, poster, execution, patcher, daemons, indexes, Sharding.ALL);
 * leadership = new LeaderElection(..., reactor.orchestrator(), ...);   // pause it until this replica leads
 * reactor.start();           // watching
 * reactor.stopTakingWork();  // no more events; handlers in flight go on
 * }</pre>
 */
public final class Reactor implements Engine {
    /** Why readiness fails, the same before the reactor exists and while it lists. */
    private static final String NOT_LISTED = "the initial listing of the watched resources is not complete";
    private static final String NOT_INDEXED = "the indexes are not complete: the indexed resources are not listed yet";

    private final OperatorServices services;
    private final Progress progress = new Progress();
    private final Map<Resource, ResourceProcessor> processors = new ConcurrentHashMap<>();
    private final Orchestrator orchestrator;
    private final Observer observer;
    private final ObjectPatcher patcher;
    private final EventSink poster;
    private final Execution execution;
    private final Spawning spawning;
    private final Childing childing;
    private final Indexing indexing;
    private final IndexesBarrier barrier;
    private final Sharding sharding;
    private final KubernetesClient client;
    /** The resources watched through server-side selectors (settings.watching). */
    private final Selections selections;

    /**
     * @param client the operator's client: discovery, listing, patching
     * @param watchClient the client for watch streams (the same as {@code client} unless their timeouts differ)
     * @param poster where Kubernetes Events go (the posting engine)
     * @param execution how handlers run
     * @param spawning the daemons and timers (the daemons engine), or {@link Spawning#NONE}
     * @param childing the children (the children engine), or {@link Childing#NONE}
     * @param indexing the indexes (the indexing engine), or {@link Indexing#NONE}
     * @param sharding which objects this replica handles (the sharding engine), or {@link Sharding#ALL}
     */
    public Reactor(OperatorServices services, KubernetesClient client, KubernetesClient watchClient, EventSink poster,
                   Execution execution, ObjectPatcher patcher, Spawning spawning, Childing childing, Indexing indexing,
                   Sharding sharding) {
        this.services = services;
        this.poster = poster;
        this.execution = execution;
        this.patcher = patcher;
        this.spawning = spawning;
        this.childing = childing;
        this.indexing = indexing;
        this.sharding = sharding;
        HandlerRegistry registry = services.registry();
        this.client = client;
        this.selections = Selections.of(services.settings().watching);
        registry.serveOnly(selections::serves);
        this.orchestrator = new Orchestrator(watchClient, services.threads(), services.settings(), services.metrics(),
                selections, resource -> registry.changingHandlers(resource).stream().anyMatch(ChangingHandler::requiresFinalizer)
                        || registry.hasSpawningHandlers(resource), this::queues);
        this.observer = new Observer(client, watchClient, registry, services.namespaces(), services.threads(),
                services.settings(), services.metrics(), orchestrator);
        this.barrier = registry.indexingHandlers().isEmpty() ? IndexesBarrier.OPEN
                // Kopf waits for the indexed resources only: another resource that never lists blocks nothing.
                : new IndexesBarrier(true, timeout -> observer.awaitListed(timeout, registry::hasIndexingHandlers));
        orchestrator.addPauseListener(spawning::pause, spawning::resume);
        orchestrator.addPauseListener(childing::pause, childing::resume);
        services.metrics().gauges(progress::waiting,
                () -> processors.values().stream().mapToInt(ResourceProcessor::objects).sum());
    }

    /**
     * Declares the reactor's checks before it exists (the endpoints answer from the start): the
     * readiness ones fail until it watches.
     */
    public static void expectChecks(OperatorChecks checks, OperatorSettings settings, HandlerRegistry registry) {
        checks.expectLiveness("watchers");
        if (settings.probes.progressTimeout != null) {
            checks.expectLiveness("progress");
        }
        checks.expectReadiness("resources-served", "the handlers' resources are not discovered yet");
        checks.expectReadiness("watch-cache-sync", NOT_LISTED);
        if (!registry.indexingHandlers().isEmpty()) {
            checks.expectReadiness("indexes-ready", NOT_INDEXED);
        }
    }

    /**
     * Resolves the resources and starts watching; resources that cannot be served yet are skipped
     * with Kopf's warnings, and served once their CRDs appear. Its checks replace the expected ones.
     */
    @Override
    public void start() {
        registerChecks(services.checks(), services.settings());
        observer.start();
    }

    private void registerChecks(OperatorChecks checks, OperatorSettings settings) {
        // Liveness: a watcher's thread died (it retries every failure, so only what the JVM cannot survive
        // ends one): such an operator no longer sees its objects.
        checks.liveness("watchers", observer::checkWatchersAlive);
        if (settings.probes.progressTimeout != null) {
            checks.liveness("progress", () -> checkProgress(settings.probes.progressTimeout));
        }
        // Not excused for a paused standby: a missing CRD is the cluster's state, not leadership's.
        checks.readiness("resources-served", observer::checkServed);
        checks.readiness("watch-cache-sync", () -> {
            // A paused standby (leader election) watches nothing, yet is ready: leadership gates work, not readiness.
            if (!observer.listed() && !orchestrator.paused()) {
                throw new IllegalStateException(NOT_LISTED);
            }
        });
        if (!services.registry().indexingHandlers().isEmpty()) {
            checks.readiness("indexes-ready", () -> {
                if (!barrier.ready() && !orchestrator.paused()) {
                    throw new IllegalStateException(NOT_INDEXED);
                }
            });
        }
    }

    /** Events wait, but none was processed for longer than the timeout: stuck. */
    private void checkProgress(Duration timeout) {
        if (progress.waiting() > 0 && progress.sinceLastProcessed().compareTo(timeout) > 0) {
            throw new IllegalStateException(progress.waiting() + " events wait, none processed for "
                    + progress.sinceLastProcessed().toSeconds() + " s");
        }
    }

    /** Waits until every watched resource has delivered its initial listing. */
    public boolean awaitListed(Duration timeout) throws InterruptedException {
        return observer.awaitListed(timeout);
    }

    /** Tells the listener whenever the served resources were rescanned (CRDs appeared, changed, vanished). */
    public void onRescan(Runnable listener) {
        observer.onRescan(listener);
    }

    /**
     * The memo of an object, for its admission requests: the one its watched handlers share, or a
     * throwaway copy of the operator's memo for objects not watched, not seen yet, or being created.
     */
    public Memo recallMemo(Resource resource, Map<String, Object> raw, boolean ephemeral) {
        ResourceProcessor processor = processors.get(resource);
        return processor != null ? processor.recallMemo(raw, ephemeral) : services.memo().copyForObject();
    }

    /** The hook of peering, leader election and sharding: pause and resume the handling. */
    public Orchestrator orchestrator() {
        return orchestrator;
    }

    /**
     * Stops watching and taking events; handlers in flight finish in their own time; the daemons
     * engine, stopped next, tells the daemons and timers to stop.
     */
    @Override
    public void stopTakingWork() {
        observer.stop();
        orchestrator.stop();
    }

    private ObjectQueues queues(Resource resource) {
        OperatorSettings settings = services.settings();
        ResourceProcessor processor = processors.computeIfAbsent(resource,
                r -> new ResourceProcessor(r, services.registry(), settings, services.memo(), patcher, poster, execution,
                        spawning, childing, indexing, barrier, sharding,
                        SelectionExits.reading(client, r, selections.of(r), settings)));
        Consumer<OperatorException> failure = services.failure();
        ObjectQueues queues = new ObjectQueues(resource, processor, services.threads(), settings, progress,
                services.metrics(), error -> failure.accept(error instanceof OutOfMemoryError outOfMemory
                        ? new OperatorException(OutOfMemory.line(outOfMemory), error)
                        : new OperatorException("Event processing has failed with an unrecoverable error. This seems to be a"
                                + " framework bug. The operator will stop to prevent damage.", error)));
        processor.recheckThrough(queues::dispatch);
        return queues;
    }
}
