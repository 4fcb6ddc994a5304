package io.kopf4j.reactor;

import io.kopf4j.Memo;
import io.kopf4j.OperatorSettings;
import io.kopf4j.engines.Metrics;
import io.kopf4j.logging.ObjectLogger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-object queues: events of one object are processed strictly one after another by one
 * virtual thread, different objects concurrently. A worker takes the newest of the queued events
 * (the older ones describe states already superseded) and exits when idle. After its own PATCH it
 * waits for the watch to deliver that resourceVersion, so handlers never run twice on a state that
 * predates their own results. While handlers are delayed it sleeps until they are due or a newer
 * event comes, then touches the object to be woken with its freshest state. After an unexpected
 * error it throttles this object alone, then processes its newest event again.
 */
final class ObjectWorkers {
    private static final Logger LOG = LoggerFactory.getLogger(ObjectWorkers.class);
    /** Wake up at least this often while handlers are delayed: Kopf's keep-alive. */
    private static final Duration LONGEST_SLEEP = Duration.ofMinutes(10);
    /** Wakes an idle worker at shutdown so that it exits at once. */
    private static final WatchEvent STOP = new WatchEvent("kopf4j-stop", Map.of());

    private final EventProcessor processor;
    private final OperatorThreads threads;
    private final OperatorSettings settings;
    private final Memo operatorMemo;
    private final Map<String, Worker> queues = new ConcurrentHashMap<>();
    /** Kopf's {@code queueing.worker_limit}: places per namespace ("" cluster-wide), if limited. */
    private final Map<String, Semaphore> places = new ConcurrentHashMap<>();
    private final Map<String, ObjectMemory> memories = new ConcurrentHashMap<>();
    private final Progress progress;
    private final Metrics metrics;
    private final io.kopf4j.Resource resource;
    private volatile boolean stopping;

    /** One object's queue and the virtual thread that works it off. */
    private static final class Worker {
        final BlockingQueue<WatchEvent> queue = new LinkedBlockingQueue<>();
        final String namespace;
        volatile Thread thread;
        volatile boolean stopping;

        Worker(String namespace) {
            this.namespace = namespace == null ? "" : namespace;
        }

        boolean isEmpty() {
            return queue.isEmpty();
        }
    }

    ObjectWorkers(io.kopf4j.Resource resource, EventProcessor processor, OperatorThreads threads, OperatorSettings settings,
                  Memo operatorMemo, Progress progress, Metrics metrics) {
        this.resource = resource;
        this.processor = processor;
        this.threads = threads;
        this.settings = settings;
        this.operatorMemo = operatorMemo;
        this.progress = progress;
        this.metrics = metrics;
    }

    /** Objects remembered (seen and not deleted). */
    int objects() {
        return memories.size();
    }

    void dispatch(WatchEvent event) {
        String key = keyOf(event);
        if (key == null || stopping) {
            return;
        }
        memories.computeIfAbsent(key, k -> new ObjectMemory(operatorMemo.copyForObject(), event.isListing()));
        progress.queued();
        queues.compute(key, (k, worker) -> {
            if (worker == null) {
                worker = new Worker(event.namespace());
                worker.queue.add(event);
                Worker own = worker;
                own.thread = threads.start("kopf4j-object-" + describe(event), () -> work(k, own));
            } else {
                worker.queue.add(event);
            }
            return worker;
        });
    }

    /** Stops taking events; workers finish the event in hand and exit, idle ones at once. */
    void stop() {
        stopping = true;
        queues.values().forEach(worker -> worker.queue.add(STOP));
    }

    /**
     * The objects' watcher is gone while the operator runs on (their namespace, or the resource,
     * null for all): their workers finish the event in hand, and those still busy after the exit
     * timeout are interrupted.
     */
    void stop(String namespace, Duration exitTimeout) {
        List<Worker> leaving = queues.values().stream()
                .filter(worker -> namespace == null || worker.namespace.equals(namespace)).toList();
        if (leaving.isEmpty()) {
            return;
        }
        leaving.forEach(worker -> {
            worker.stopping = true;
            worker.queue.add(STOP);
        });
        threads.start("kopf4j-exit-" + resource.plural(), () -> {
            try {
                Thread.sleep(exitTimeout);
            } catch (InterruptedException e) {
                return;
            }
            leaving.stream().map(worker -> worker.thread).filter(t -> t != null && t.isAlive()).forEach(Thread::interrupt);
        });
    }

    private void work(String key, Worker worker) {
        BlockingQueue<WatchEvent> queue = worker.queue;
        ObjectMemory memory = memories.get(key);
        try {
            WatchEvent next = null;
            while (!stopping && !worker.stopping) {
                List<WatchEvent> batch = new ArrayList<>();
                if (next != null) {
                    batch.add(next);
                } else {
                    WatchEvent first = queue.poll(settings.queueing.idleTimeout.toMillis(), TimeUnit.MILLISECONDS);
                    if (first == null) {
                        if (queues.compute(key, (k, w) -> w.isEmpty() ? null : w) == null) {
                            return;
                        }
                        continue;
                    }
                    batch.add(first);
                }
                queue.drainTo(batch);
                awaitConsistency(memory, queue, batch);
                batch.removeIf(e -> e == STOP);
                progress.taken(batch.size() - (next != null ? 1 : 0));
                if (stopping || worker.stopping || batch.isEmpty()) {
                    return;
                }
                next = processLatest(key, memory, worker, batch.get(batch.size() - 1));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            queues.remove(key, worker);
        }
    }

    private void awaitConsistency(ObjectMemory memory, BlockingQueue<WatchEvent> queue, List<WatchEvent> batch)
            throws InterruptedException {
        if (memory.expectedVersion == null) {
            return;
        }
        while (batch.stream().noneMatch(e -> memory.expectedVersion.equals(e.resourceVersion()) || e.isDeleted() || e == STOP)) {
            long left = Duration.between(Instant.now(), memory.consistencyDeadline).toMillis();
            WatchEvent next = left > 0 ? queue.poll(left, TimeUnit.MILLISECONDS) : null;
            if (next == null) {
                break;   // Kopf's consistency_timeout: assume consistency and go on.
            }
            batch.add(next);
            queue.drainTo(batch);
        }
        memory.expectedVersion = null;
    }

    /** Processes the event; returns an event to process at once (newer, or the same again), or null. */
    private WatchEvent processLatest(String key, ObjectMemory memory, Worker worker, WatchEvent event)
            throws InterruptedException {
        BlockingQueue<WatchEvent> queue = worker.queue;
        ObjectLogger logger = ObjectLogger.local(event.object());
        metrics.queueWait(resource, Duration.ofNanos(System.nanoTime() - event.received()));
        try {
            ProcessingResult result = inPlace(worker, () -> processor.process(event, memory));
            progress.processed();
            memory.errors = 0;
            memory.remainingFns = result.remainingFns();
            if (event.isDeleted()) {
                memories.remove(key);
                return null;
            }
            if (result.delays().isEmpty() && result.matched()) {
                logger.debug("Handling cycle is finished, waiting for new changes.");
            }
            if (result.patchedVersion() != null) {
                expect(memory, result.patchedVersion());
                return null;   // our own patch comes back as an event and continues the cycle
            }
            if (result.delays().isEmpty()) {
                return null;
            }
            Duration sleep = Collections.min(result.delays());
            sleep = sleep.compareTo(LONGEST_SLEEP) > 0 ? LONGEST_SLEEP : sleep;
            logger.debug("Sleeping for {} seconds for the delayed handlers.", sleep.toMillis() / 1000.0);
            WatchEvent newer = sleep.isZero() ? null : queue.poll(sleep.toMillis(), TimeUnit.MILLISECONDS);
            if (newer != null) {
                progress.taken(newer == STOP ? 0 : 1);
                return newer == STOP ? null : newer;
            }
            String touched = inPlace(worker, () -> processor.touch(event));
            if (touched != null) {
                expect(memory, touched);
                return null;
            }
            return event;
        } catch (RuntimeException e) {
            memory.errors++;
            List<Duration> delays = settings.queueing.errorDelays;
            if (delays.isEmpty()) {
                logger.error("Processing failed due to an unexpected error: {}", e.toString(), e);
                return null;
            }
            Duration delay = delays.get(Math.min(memory.errors, delays.size()) - 1);
            logger.error("Throttling for {} seconds due to an unexpected error: {}", delay.toSeconds(), e.toString(), e);
            Thread.sleep(delay);
            List<WatchEvent> newer = new ArrayList<>();
            queue.drainTo(newer);
            newer.removeIf(candidate -> candidate == STOP);
            progress.taken(newer.size());
            return newer.isEmpty() ? event : newer.get(newer.size() - 1);
        }
    }

    /** Runs the step holding one of the namespace's places, if {@code queueing.workerLimit} limits them. */
    private <T> T inPlace(Worker worker, java.util.function.Supplier<T> step) throws InterruptedException {
        Integer limit = settings.queueing.workerLimit;
        if (limit == null) {
            return step.get();
        }
        Semaphore place = places.computeIfAbsent(worker.namespace, namespace -> new Semaphore(limit, true));
        place.acquire();
        try {
            return step.get();
        } finally {
            place.release();
        }
    }

    private void expect(ObjectMemory memory, String version) {
        memory.expectedVersion = version;
        memory.consistencyDeadline = Instant.now().plus(settings.persistence.consistencyTimeout);
    }

    private static String keyOf(WatchEvent event) {
        String uid = event.uid();
        if (uid != null) {
            return uid;
        }
        LOG.warn("Skipping an object without metadata.uid: {}", describe(event));
        return null;
    }

    private static String describe(WatchEvent event) {
        return event.namespace() == null ? String.valueOf(event.name()) : event.namespace() + "/" + event.name();
    }
}
