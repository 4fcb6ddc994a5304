package io.kopf4j.internal.reactor.queueing;

import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import io.kopf4j.internal.runtime.OutOfMemory;
import io.kopf4j.internal.watching.WatchEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-object queues, as Kopf's queueing: the events of one object are processed strictly one after
 * another, in their order of arrival, by one virtual thread; different objects concurrently. A
 * worker exits when idle. After our own PATCH, the processor is told until when that patch's
 * resourceVersion is awaited (Kopf's consistency wait), and the wait ends when the watch delivers
 * that version. An interface in front of the processor keeps this package free of handler logic.
 */
public final class ObjectQueues {
    private static final Logger LOG = LoggerFactory.getLogger(ObjectQueues.class);
    /** Wakes an idle worker at shutdown so that it exits at once. */
    private static final WatchEvent STOP = new WatchEvent("kopf4j-stop", Map.of());

    private final String resource;
    private final EventProcessor processor;
    private final OperatorThreads threads;
    private final OperatorSettings settings;
    private final Progress progress;
    private final Metrics metrics;
    private final io.kopf4j.Resource metricsResource;
    private final Consumer<Throwable> unrecoverable;
    private final Map<String, Worker> workers = new ConcurrentHashMap<>();
    /** Kopf's {@code queueing.worker_limit}: places per namespace ("" cluster-wide), if limited. */
    private final Map<String, Semaphore> places = new ConcurrentHashMap<>();
    private volatile boolean stopping;

    /** One object's backlog and the virtual thread that works it off. */
    private static final class Worker {
        final Backlog backlog = new Backlog();
        final String namespace;
        volatile Thread thread;
        volatile boolean stopping;
        /** An event is in hand (being processed), as opposed to waiting in the backlog or idle. */
        volatile boolean busy;

        Worker(String namespace) {
            this.namespace = namespace == null ? "" : namespace;
        }
    }

    /**
     * @param unrecoverable told of an error that escaped the processing (a Java VM error): the
     *                      operator stops rather than go on with an object's state unknown
     */
    public ObjectQueues(io.kopf4j.Resource resource, EventProcessor processor, OperatorThreads threads,
                        OperatorSettings settings, Progress progress, Metrics metrics, Consumer<Throwable> unrecoverable) {
        this.resource = resource.plural();
        this.metricsResource = resource;
        this.processor = processor;
        this.threads = threads;
        this.settings = settings;
        this.progress = progress;
        this.metrics = metrics;
        this.unrecoverable = unrecoverable;
    }

    /** Queues an event for its object, starting the object's worker if it has none. */
    public void dispatch(WatchEvent event) {
        String key = keyOf(event);
        if (key == null || stopping) {
            return;
        }
        if (!event.isRecheck()) {
            processor.arrived(event);
            if (!processor.concerns(event)) {
                return;
            }
        }
        progress.queued();
        workers.compute(key, (k, worker) -> {
            if (worker == null) {
                Worker fresh = new Worker(event.namespace());
                fresh.backlog.put(event);
                fresh.thread = threads.start("kopf4j-object-" + describe(event), () -> work(k, fresh));
                return fresh;
            }
            worker.backlog.put(event);
            return worker;
        });
    }

    /** Stops taking events; workers finish the event in hand and exit, idle ones at once. */
    public void stop() {
        stopping = true;
        workers.values().forEach(worker -> worker.backlog.put(STOP));
    }

    /**
     * The objects' watcher is gone while the operator runs on (their namespace, or the resource,
     * null for all): their workers finish the event in hand, and those still busy after the exit
     * timeout are interrupted.
     */
    public void stop(String namespace, Duration exitTimeout) {
        List<Worker> leaving = workers.values().stream()
                .filter(worker -> namespace == null || worker.namespace.equals(namespace)).toList();
        if (leaving.isEmpty()) {
            return;
        }
        leaving.forEach(worker -> {
            worker.stopping = true;
            worker.backlog.put(STOP);
        });
        threads.start("kopf4j-exit-" + resource, () -> {
            try {
                Thread.sleep(exitTimeout);
            } catch (InterruptedException e) {
                return;
            }
            leaving.stream().map(worker -> worker.thread).filter(t -> t != null && t.isAlive()).forEach(Thread::interrupt);
        });
    }

    /**
     * Whether no object whose key matches is processing an event (sharding hands objects over only
     * once their previous owner has put them down, and asks again at its next round). Events still
     * waiting in a backlog do not count: whoever asks has already made sure they will be skipped.
     *
     * @param keys which objects (Kopf's keys: the uid) to ask about
     */
    public boolean idle(Predicate<String> keys) {
        return workers.entrySet().stream().noneMatch(entry -> entry.getValue().busy && keys.test(entry.getKey()));
    }

    /** Kopf's worker: takes the events one by one, tracking the consistency of our own patches. */
    private void work(String key, Worker worker) {
        String expectedVersion = null;
        Instant consistencyDeadline = null;
        try {
            while (!stopping && !worker.stopping) {
                Duration timeout = settings.queueing.idleTimeout;
                if (consistencyDeadline != null) {
                    Duration untilConsistent = Duration.between(Instant.now(), consistencyDeadline);
                    timeout = untilConsistent.compareTo(timeout) > 0 ? untilConsistent : timeout;
                }
                WatchEvent event = worker.backlog.take(timeout);
                if (event == null) {
                    if (workers.computeIfPresent(key, (k, w) -> w.backlog.isEmpty() ? null : w) == null) {
                        return;
                    }
                    continue;
                }
                if (event == STOP) {
                    return;
                }
                progress.taken(1);
                if (expectedVersion != null && expectedVersion.equals(event.resourceVersion())) {
                    expectedVersion = null;
                    consistencyDeadline = null;
                }
                metrics.queueWait(metricsResource, Duration.ofNanos(System.nanoTime() - event.received()));
                String patched;
                worker.busy = true;
                try {
                    patched = inPlace(worker, event, consistencyDeadline);
                } finally {
                    worker.busy = false;
                }
                progress.processed();
                if (patched != null && !settings.persistence.consistencyTimeout.isZero()) {
                    expectedVersion = patched;
                    consistencyDeadline = Instant.now().plus(settings.persistence.consistencyTimeout);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (OutOfMemoryError e) {
            OutOfMemory.thrown(e);
            unrecoverable.accept(e);   // said once, by the operator's stop, without a stack trace to allocate
        } catch (RuntimeException | Error e) {
            LOG.error("Event processing has failed with an unrecoverable error for {}.", key, e);
            unrecoverable.accept(e);
        } finally {
            workers.remove(key, worker);
            progress.taken(worker.backlog.drain(event -> event != STOP));
        }
    }

    /** Processes holding one of the namespace's places, if {@code queueing.workerLimit} limits them. */
    private String inPlace(Worker worker, WatchEvent event, Instant consistencyDeadline) throws InterruptedException {
        Integer limit = settings.queueing.workerLimit;
        if (limit == null) {
            return processor.process(event, worker.backlog, consistencyDeadline);
        }
        Semaphore place = places.computeIfAbsent(worker.namespace, namespace -> new Semaphore(limit, true));
        place.acquire();
        try {
            return processor.process(event, worker.backlog, consistencyDeadline);
        } finally {
            place.release();
        }
    }

    private static String keyOf(WatchEvent event) {
        String key = event.key();
        if (key == null) {
            LOG.warn("Skipping an object without metadata.name and metadata.uid: {}", event.object());
        }
        return key;
    }

    private static String describe(WatchEvent event) {
        return event.namespace() == null ? String.valueOf(event.name()) : event.namespace() + "/" + event.name();
    }
}
