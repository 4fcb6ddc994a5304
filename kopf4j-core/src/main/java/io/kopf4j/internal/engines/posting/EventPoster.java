package io.kopf4j.internal.engines.posting;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.clients.ApiErrors;
import io.kopf4j.internal.logging.EventSink;
import io.kopf4j.internal.runtime.Engine;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.structs.ObjectReferences;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Posts Kubernetes Events about objects, as Kopf's {@code posting} module: queued by handlers and
 * loggers (never blocking them), written by one background virtual thread, correlated as client-go's
 * event recorder does ({@link EventCorrelator}), so that a log line repeated every second by a
 * thousand timers costs a write per object a minute rather than a thousand a second: identical
 * events are counted into one Event, similar ones combined, each object's writes budgeted, and the
 * queue bounded by {@code settings.posting.queueSize} (beyond it, new Events are dropped with a
 * warning a minute that counts them). New Events are written in the order they were queued. Its
 * {@link #event}, {@link #info}, {@link #warn} and {@link #exception} are Kopf's {@code kopf.event}
 * and its shortcuts, with their checks of {@code settings.posting}; handlers reach the operator's
 * poster through their contexts (and {@code io.kopf4j.Events} through the context of the handler
 * running on its thread).
 *
 * <pre>{@code
 * EventPoster poster = new EventPoster(client, settings.posting, metrics);
 * poster.info(body, "Created", "The child is created");   // queued; written in the background
 * poster.close();                                         // writes what waits, for up to 2 s
 * }</pre>
 */
public final class EventPoster implements EventSink, Engine, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventPoster.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);
    /** After the interruption, for the write in flight to end, so that the poster has stopped when close() returns. */
    private static final Duration INTERRUPT_GRACE = Duration.ofSeconds(1);

    private final OperatorSettings.Posting settings;
    private final Metrics metrics;
    private final EventWriter writer;
    private final int queueSize;
    /** The monotonic clock's origin: wall-clock jumps must not delay or hasten the writes. */
    private final long startNanos = System.nanoTime();
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when the earliest write or warning moves earlier, or the poster closes. */
    private final Condition changed = lock.newCondition();
    private final EventCorrelator correlator;        // guarded by lock
    private final DropSummary drops = new DropSummary();   // guarded by lock
    private boolean closing;                         // guarded by lock
    private final Thread worker;

    /** Starts posting through this client; {@link #close()} stops it. The limits of the settings are read once, here. */
    public EventPoster(KubernetesClient client, OperatorSettings.Posting settings, Metrics metrics) {
        this(settings, metrics, new EventSender(client, settings));
    }

    /** Starts posting through this writer: e.g. to capture the writes in tests. */
    public EventPoster(OperatorSettings.Posting settings, Metrics metrics, EventWriter writer) {
        this.settings = settings;
        this.metrics = metrics;
        this.writer = writer;
        this.queueSize = settings.queueSize;
        this.correlator = new EventCorrelator(settings);
        this.worker = Thread.ofVirtual().name("kopf4j-event-poster").start(this::run);
    }

    @Override
    public OperatorSettings.Posting settings() {
        return settings;
    }

    /**
     * Kopf's {@code kopf.event}: one event of this type for each object, whatever
     * {@code settings.posting.level}.
     *
     * @param objects a body, a reference, a fabric8 object, or an iterable of them (see {@link ObjectReferences#walk})
     */
    @Override
    public void event(Object objects, String type, String reason, String message) {
        Objects.requireNonNull(type, "an event needs a type (e.g. Normal, Warning)");
        post(objects, type, reason, message);
    }

    /** Kopf's {@code kopf.info}: {@code Normal} events, if {@code settings.posting.level} is INFO or lower. */
    @Override
    public void info(Object objects, String reason, String message) {
        postAt(Level.INFO, objects, "Normal", reason, message);
    }

    /** Kopf's {@code kopf.warn}: {@code Warning} events, if {@code settings.posting.level} is WARN or lower. */
    @Override
    public void warn(Object objects, String reason, String message) {
        postAt(Level.WARN, objects, "Warning", reason, message);
    }

    /**
     * Kopf's {@code kopf.exception}: {@code Error} events, if {@code settings.posting.level} is ERROR
     * or lower; the reason defaults to the exception's class, the message is followed by the
     * exception's.
     */
    @Override
    public void exception(Object objects, String reason, String message, Throwable error) {
        Objects.requireNonNull(error, "an exception event needs the exception");
        String text = error.getMessage() == null ? "" : error.getMessage();
        postAt(Level.ERROR, objects, "Error", reason == null || reason.isEmpty() ? error.getClass().getSimpleName() : reason,
                message == null || message.isEmpty() ? text : message + " " + text);
    }

    private void postAt(Level level, Object objects, String type, String reason, String message) {
        if (settings.level.toInt() <= level.toInt()) {
            post(objects, type, reason, message);
        }
    }

    private void post(Object objects, String type, String reason, String message) {
        for (Map<String, Object> reference : ObjectReferences.walk(objects)) {
            post(reference, type, reason, message == null ? "" : message);
        }
    }

    /**
     * Queues an event about the object with this reference (see {@link ObjectReferences}), if
     * {@code settings.posting.enabled}; events about Events are skipped, to prevent event storms.
     */
    @Override
    public void post(Map<String, Object> reference, String type, String reason, String message) {
        boolean aboutEvent = "v1".equals(reference.get("apiVersion")) && "Event".equals(reference.get("kind"));
        if (!settings.enabled || aboutEvent) {
            return;
        }
        K8sEvent occurrence = new K8sEvent(reference, type, reason, message == null ? "" : message, Instant.now());
        EventCorrelator.Outcome outcome;
        lock.lock();
        try {
            Instant due = correlator.nextDue();
            outcome = correlator.offer(occurrence, now());
            boolean firstDrop = outcome == EventCorrelator.Outcome.DROPPED && drops.dropped();
            // Only a change of plan wakes the poster: a thousand repeats a second must not.
            if (firstDrop || !Objects.equals(due, correlator.nextDue())) {
                changed.signal();
            }
        } finally {
            lock.unlock();
        }
        switch (outcome) {
            case COUNTED -> metrics.eventAggregated();
            case DROPPED -> metrics.eventDropped();
            case NEW -> { }
        }
    }

    /** Once the handlers are done: what they queued is written (see {@link #close()}). */
    @Override
    public void release(boolean handlersEnded) {
        close();
    }

    /** Writes what is queued, due or not, for up to two seconds; then stops, abandoning the rest. */
    @Override
    public void close() {
        lock.lock();
        try {
            closing = true;
            changed.signal();
        } finally {
            lock.unlock();
        }
        try {
            if (!worker.join(CLOSE_TIMEOUT)) {
                worker.interrupt();
                worker.join(INTERRUPT_GRACE);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        lock.lock();
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Instant now = now();
                long dropped = drops.warn(now);
                if (dropped > 0) {
                    warnDropped(dropped);
                    continue;
                }
                Optional<EventWrite> write = closing ? correlator.drain() : correlator.take(now);
                if (write.isPresent()) {
                    write(write.get());
                } else if (closing) {
                    return;
                } else {
                    await(now, earliest(correlator.nextDue(), drops.nextWarning()));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    /** Sends one write without holding the lock (posting goes on meanwhile), and tells the correlator its result. */
    private void write(EventWrite write) {
        String name = null;
        lock.unlock();
        try {
            name = writer.write(write);
        } catch (RuntimeException e) {
            // Interrupted: the operator stops, and what still waits is abandoned (see close()).
            if (!Thread.currentThread().isInterrupted()) {
                // Kopf's warning: Events are auxiliary, they must not fail the handling.
                warnOfFailure(e, "Event: type=" + Json.pythonRepr(write.type()) + ", reason=" + Json.pythonRepr(write.reason())
                        + ", message=" + Json.pythonRepr(EventSender.cut(write.message())) + ".");
            }
        } finally {
            lock.lock();
        }
        correlator.written(name, now());
        if (name != null) {
            metrics.eventPosted(name.equals(write.name()) ? "PATCH" : "POST");
        }
    }

    /** Kopf's warnings: with the API's status if it answered, else only the event. */
    private static void warnOfFailure(RuntimeException e, String event) {
        Status status = e instanceof KubernetesClientException answered && answered.getCode() > 0 ? answered.getStatus() : null;
        if (status == null) {
            LOG.warn("Failed to post an event. Ignoring and continuing. {}", event);
            return;
        }
        // Kopf's line, with no space between the details and the event; kopf4j's hint after it, on a 403.
        LOG.warn("Failed to post an event. Ignoring and continuing. Code: {}. Message: {}. Details: {}{}{}",
                Objects.requireNonNullElse(status.getCode(), "None"), Objects.requireNonNullElse(status.getMessage(), "None"),
                status.getDetails() == null ? "None" : Json.pythonRepr(Json.mapper().convertValue(status.getDetails(), Map.class)),
                event, ApiErrors.forbiddenHint(e));
    }

    private void warnDropped(long dropped) {
        lock.unlock();
        try {
            LOG.warn("Dropped {} Kubernetes Events: {} Events were waiting to be written already, as many as"
                    + " settings.posting.queueSize allows. Further drops are counted and told once a minute.",
                    dropped, queueSize);
        } finally {
            lock.lock();
        }
    }

    private void await(Instant now, Instant wake) throws InterruptedException {
        if (wake == null) {
            changed.await();
        } else if (wake.isAfter(now)) {
            changed.awaitNanos(Duration.between(now, wake).toNanos());
        }
    }

    private static Instant earliest(Instant one, Instant other) {
        return one == null ? other : other == null || one.isBefore(other) ? one : other;
    }

    /** The monotonic time, as an instant since the poster started. */
    private Instant now() {
        return Instant.EPOCH.plusNanos(System.nanoTime() - startNanos);
    }
}
