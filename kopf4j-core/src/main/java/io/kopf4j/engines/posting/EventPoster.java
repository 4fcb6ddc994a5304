package io.kopf4j.engines.posting;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorSettings;
import io.kopf4j.logging.EventSink;
import io.kopf4j.structs.ObjectReferences;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import org.slf4j.event.Level;

/**
 * Posts Kubernetes Events about objects, as Kopf's {@code posting} module: queued by handlers and
 * loggers (never blocking them), posted in order by one background virtual thread. Its
 * {@link #event}, {@link #info}, {@link #warn} and {@link #exception} are Kopf's {@code kopf.event}
 * and its shortcuts, with their checks of {@code settings.posting}; handlers reach the operator's
 * poster through their contexts (and {@code io.kopf4j.Events} through the context of the handler
 * running on its thread).
 */
public final class EventPoster implements EventSink, AutoCloseable {
    private static final K8sEvent STOP = new K8sEvent(Map.of(), "", "", "", Instant.EPOCH);

    private final OperatorSettings.Posting settings;
    private final Consumer<K8sEvent> sender;
    private final BlockingQueue<K8sEvent> queue = new LinkedBlockingQueue<>();
    private final Thread worker;

    /** Starts posting through this client; {@link #close()} stops it. */
    public EventPoster(KubernetesClient client, OperatorSettings.Posting settings) {
        this(settings, new EventSender(client, settings));
    }

    /** Starts posting through this sender: e.g. to capture the events in tests. */
    public EventPoster(OperatorSettings.Posting settings, Consumer<K8sEvent> sender) {
        this.settings = settings;
        this.sender = sender;
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
        if (settings.enabled && !aboutEvent) {
            queue.offer(new K8sEvent(reference, type, reason, message, Instant.now()));
        }
    }

    /** Posts what is queued (for up to two seconds), then stops. */
    @Override
    public void close() {
        queue.offer(STOP);
        try {
            if (!worker.join(Duration.ofSeconds(2))) {
                worker.interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            while (true) {
                List<K8sEvent> batch = new ArrayList<>();
                batch.add(queue.take());
                queue.drainTo(batch);
                for (K8sEvent event : batch) {
                    if (event == STOP) {
                        return;
                    }
                    sender.accept(event);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
