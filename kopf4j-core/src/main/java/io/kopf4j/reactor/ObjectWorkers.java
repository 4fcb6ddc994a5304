package io.kopf4j.reactor;

import io.kopf4j.logging.ObjectLogger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-object queues: events of one object are processed strictly one after another by one
 * virtual thread, different objects concurrently. A worker takes the newest of the queued events
 * (the older ones describe states already superseded), exits when idle, and is started again by
 * the next event. After its own PATCH it waits for the watch to deliver that resourceVersion, so
 * that handlers never run twice on a state that predates their own results.
 */
final class ObjectWorkers {
    private static final Logger LOG = LoggerFactory.getLogger(ObjectWorkers.class);
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration CONSISTENCY_TIMEOUT = Duration.ofSeconds(5);

    /** Wakes an idle worker at shutdown so that it exits at once. */
    private static final WatchEvent STOP = new WatchEvent("kopf4j-stop", Map.of());

    private final EventProcessor processor;
    private final OperatorThreads threads;
    private final ScheduledExecutorService retries;
    private final Map<String, BlockingQueue<WatchEvent>> queues = new ConcurrentHashMap<>();
    private final Map<String, ObjectMemory> memories = new ConcurrentHashMap<>();
    private volatile boolean stopping;

    ObjectWorkers(EventProcessor processor, OperatorThreads threads, ScheduledExecutorService retries) {
        this.processor = processor;
        this.threads = threads;
        this.retries = retries;
    }

    void dispatch(WatchEvent event) {
        String key = keyOf(event);
        if (key == null || stopping) {
            return;
        }
        queues.compute(key, (k, queue) -> {
            if (queue == null) {
                queue = new LinkedBlockingQueue<>();
                queue.add(event);
                BlockingQueue<WatchEvent> own = queue;
                threads.start("kopf4j-object-" + describe(event), () -> work(k, own));
            } else {
                queue.add(event);
            }
            return queue;
        });
    }

    /** Stops taking events; workers finish the event in hand and exit, idle ones at once. */
    void stop() {
        stopping = true;
        queues.values().forEach(queue -> queue.add(STOP));
    }

    private void work(String key, BlockingQueue<WatchEvent> queue) {
        ObjectMemory memory = memories.computeIfAbsent(key, k -> new ObjectMemory());
        try {
            while (!stopping) {
                WatchEvent first = queue.poll(IDLE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                if (first == STOP) {
                    return;
                }
                if (first == null) {
                    if (queues.compute(key, (k, q) -> q.isEmpty() ? null : q) == null) {
                        return;
                    }
                    continue;
                }
                List<WatchEvent> batch = new ArrayList<>();
                batch.add(first);
                queue.drainTo(batch);
                awaitConsistency(memory, queue, batch);
                batch.remove(STOP);
                if (!stopping && !batch.isEmpty()) {
                    processLatest(key, memory, batch.get(batch.size() - 1));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            queues.remove(key, queue);
        }
    }

    private void awaitConsistency(ObjectMemory memory, BlockingQueue<WatchEvent> queue, List<WatchEvent> batch)
            throws InterruptedException {
        if (memory.expectedVersion == null) {
            return;
        }
        while (batch.stream().noneMatch(e -> memory.expectedVersion.equals(e.resourceVersion()) || e.isDeleted())) {
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

    private void processLatest(String key, ObjectMemory memory, WatchEvent event) {
        if (event.isListing() && memory.latest == null) {
            memory.noticedByListing = true;
        }
        memory.latest = event;
        try {
            ProcessingResult result = processor.process(event, memory);
            memory.errors = 0;
            if (result.patchedVersion() != null) {
                memory.expectedVersion = result.patchedVersion();
                memory.consistencyDeadline = Instant.now().plus(CONSISTENCY_TIMEOUT);
            }
            if (result.retryAfter() != null) {
                retryLater(key, memory, event, result.retryAfter());
            } else {
                new ObjectLogger(event.namespace(), event.name()).debug("Handling cycle is finished, waiting for new changes.");
            }
        } catch (RuntimeException e) {
            memory.errors++;
            Duration delay = Throttling.delayAfter(memory.errors);
            new ObjectLogger(event.namespace(), event.name()).error("Throttling for {} seconds due to an unexpected error: {}", delay.toSeconds(), e.toString(), e);
            retryLater(key, memory, event, delay);
        }
        if (event.isDeleted()) {
            memories.remove(key);
        }
    }

    /** Processes the object again after the delay, unless a newer event has come meanwhile. */
    private void retryLater(String key, ObjectMemory memory, WatchEvent event, Duration delay) {
        retries.schedule(() -> {
            if (memory.latest == event && memories.get(key) == memory) {
                dispatch(event);
            }
        }, delay.toMillis(), TimeUnit.MILLISECONDS);
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
