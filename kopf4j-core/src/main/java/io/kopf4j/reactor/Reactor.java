package io.kopf4j.reactor;

import io.kopf4j.logging.EventSink;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Index;
import io.kopf4j.Memo;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.actions.Execution;
import io.kopf4j.clients.ApiRetries;
import io.kopf4j.clients.ObjectPatcher;
import io.kopf4j.runtime.Metrics;
import io.kopf4j.intents.HandlerRegistry;
import io.kopf4j.reactor.observation.Observer;
import io.kopf4j.runtime.OperatorThreads;
import io.kopf4j.runtime.OutOfMemory;
import io.kopf4j.reactor.orchestration.Orchestrator;
import io.kopf4j.reactor.processing.IndexesBarrier;
import io.kopf4j.reactor.processing.Indexing;
import io.kopf4j.reactor.processing.ResourceProcessor;
import io.kopf4j.reactor.processing.Sharding;
import io.kopf4j.reactor.processing.Spawning;
import io.kopf4j.reactor.queueing.ObjectQueues;
import io.kopf4j.reactor.queueing.Progress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import io.kopf4j.OperatorException;

/**
 * The running operator's machinery, wired top to bottom as an event travels: observation (what to
 * serve) → orchestration (one watcher per resource and namespace, pausable) → queueing (per-object
 * queues) → processing (causes, handlers, state, patch). Engines beside the flow (posting, probing,
 * metrics) are given to the parts that feed them.
 */
public final class Reactor {
    private final KubernetesClient client;
    private final KubernetesClient handlerClient;
    private final HandlerRegistry registry;
    private final OperatorThreads threads;
    private final OperatorSettings settings;
    private final Memo memo;
    private final Metrics metrics;
    private final Progress progress = new Progress();
    private final Map<Resource, ResourceProcessor> processors = new ConcurrentHashMap<>();
    private final Orchestrator orchestrator;
    private final Observer observer;
    private final Consumer<OperatorException> failure;
    private ObjectPatcher patcher;
    private final EventSink poster;
    private Execution execution;
    private final Spawning.Factory spawningFactory;
    private Spawning spawning = Spawning.NONE;
    private final Indexing.Factory indexingFactory;
    private volatile Indexing indexing = Indexing.NONE;
    private final IndexesBarrier barrier;
    private volatile Sharding sharding = Sharding.ALL;

    /**
     * @param watchClient the client for watch streams (the same as {@code client} unless their timeouts differ)
     * @param handlerClient the client given to handlers ({@code HandlerContext.client()})
     * @param namespaces the namespace patterns to serve; empty means cluster-wide
     * @param poster where Kubernetes Events go (the posting engine)
     * @param spawningFactory makes the daemons and timers engine once the execution exists
     * @param indexingFactory makes the indexing engine once the execution exists
     * @param failure told when the operator cannot go on (an unrecoverable error in the processing)
     */
    public Reactor(KubernetesClient client, KubernetesClient watchClient, KubernetesClient handlerClient,
                   HandlerRegistry registry, List<String> namespaces,
                   OperatorThreads threads, OperatorSettings settings, Memo memo, Metrics metrics,
                   EventSink poster, Spawning.Factory spawningFactory, Indexing.Factory indexingFactory,
                   Consumer<OperatorException> failure) {
        this.indexingFactory = indexingFactory;
        this.poster = poster;
        this.spawningFactory = spawningFactory;
        this.failure = failure;
        this.client = client;
        this.handlerClient = handlerClient;
        this.registry = registry;
        this.threads = threads;
        this.settings = settings;
        this.memo = memo;
        this.metrics = metrics;
        this.orchestrator = new Orchestrator(watchClient, threads, settings, metrics, this::queues);
        this.observer = new Observer(client, watchClient, registry, namespaces, threads, settings, metrics, orchestrator);
        this.barrier = registry.indexingHandlers().isEmpty() ? IndexesBarrier.OPEN
                // Kopf waits for the indexed resources only: another resource that never lists blocks nothing.
                : new IndexesBarrier(true, timeout -> observer.awaitListed(timeout, registry::hasIndexingHandlers));
        metrics.gauges(progress::waiting, () -> processors.values().stream().mapToInt(ResourceProcessor::objects).sum());
    }

    /** Which objects this replica handles (the sharding engine); before {@link #start()}. Default: all. */
    public void shardWith(Sharding sharding) {
        this.sharding = sharding;
    }

    /**
     * Resolves the resources and starts watching; resources that cannot be served yet are skipped
     * with Kopf's warnings, and served once their CRDs appear.
     */
    public void start() {
        ApiRetries retries = ApiRetries.of(settings);
        patcher = new ObjectPatcher(client, settings.networking.maxConcurrentRequests, retries, metrics);
        Semaphore handlerSlots = settings.execution.maxWorkers == null ? null : new Semaphore(settings.execution.maxWorkers, true);
        execution = new Execution(settings.execution.lifecycle, settings.execution.defaultBackoff,
                settings.persistence.progressStorage, metrics, handlerSlots, poster, handlerClient)
                .withIndexes(id -> indexing.index(id));
        indexing = indexingFactory.create(execution);
        spawning = spawningFactory.create(execution, patcher);
        orchestrator.addPauseListener(spawning::pause, spawning::resume);
        observer.start();
    }

    /** Waits until every watched resource has delivered its initial listing. */
    public boolean awaitListed(Duration timeout) throws InterruptedException {
        return observer.awaitListed(timeout);
    }

    /** True once every watched resource has delivered its initial listing; never blocks. */
    public boolean listed() {
        return observer.listed();
    }

    /**
     * Readiness: fails while a handler's resource is not served (its CRD is missing, it is
     * ambiguous, not watchable or not patchable), naming each and why.
     *
     * @throws IllegalStateException with what is missing
     */
    public void checkResourcesServed() {
        observer.checkServed();
    }

    /**
     * Liveness: fails if a watcher's thread has died (it retries every failure, so only what the
     * JVM cannot survive ends one), naming it and why: such an operator no longer sees its objects.
     *
     * @throws IllegalStateException naming the dead watchers
     */
    public void checkWatchersAlive() {
        observer.checkWatchersAlive();
    }

    /** True once every index is complete: every watched resource listed and indexed; never blocks. */
    public boolean indexed() {
        return barrier.ready();
    }

    /**
     * The index of an id, for the probes (handlers reach it through their context).
     *
     * @throws IllegalArgumentException if the operator has no such index
     */
    public Index<?, ?> index(String id) {
        return indexing.index(id);
    }

    /** Tells the listener whenever the served resources were rescanned (CRDs appeared, changed, vanished). */
    public void onRescan(Runnable listener) {
        observer.onRescan(listener);
    }

    /** The execution of handlers, for the engines beside the flow (admission); null before {@link #start()}. */
    public Execution execution() {
        return execution;
    }

    /**
     * The memo of an object, for its admission requests: the one its watched handlers share, or a
     * throwaway copy of the operator's memo for objects not watched, not seen yet, or being created.
     */
    public Memo recallMemo(Resource resource, Map<String, Object> raw, boolean ephemeral) {
        ResourceProcessor processor = processors.get(resource);
        return processor != null ? processor.recallMemo(raw, ephemeral) : memo.copyForObject();
    }

    public Progress progress() {
        return progress;
    }

    /** The hook of peering, leader election and sharding: pause and resume the handling. */
    public Orchestrator orchestrator() {
        return orchestrator;
    }

    /**
     * Stops watching and taking events; handlers in flight finish in their own time; daemons and
     * timers are told to stop (each as its cancellation options say).
     */
    public void stop() {
        observer.stop();
        orchestrator.stop();
        spawning.stopAll();
    }

    private ObjectQueues queues(Resource resource) {
        ResourceProcessor processor = processors.computeIfAbsent(resource,
                r -> new ResourceProcessor(r, registry, settings, memo, patcher, poster, execution, spawning,
                        indexing, barrier, sharding));
        ObjectQueues queues = new ObjectQueues(resource, processor, threads, settings, progress, metrics, error -> failure.accept(
                error instanceof OutOfMemoryError outOfMemory ? new OperatorException(OutOfMemory.line(outOfMemory), error)
                        : new OperatorException("Event processing has failed with an unrecoverable error. This seems to be a"
                                + " framework bug. The operator will stop to prevent damage.", error)));
        processor.recheckThrough(queues::dispatch);
        return queues;
    }
}
