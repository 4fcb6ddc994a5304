package io.kopf4j.engines;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorSettings;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts Kubernetes Events about objects, as Kopf's event poster: queued by handlers and loggers
 * (never blocking them), posted by one background virtual thread in batches, messages over 1024
 * characters cut in the middle, events about Events skipped, failures logged as warnings only.
 * Events of cluster-scoped objects go to the {@code default} namespace.
 */
public final class EventPoster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventPoster.class);
    private static final int MAX_MESSAGE = 1024;
    private static final Pending STOP = new Pending(Map.of(), "", "", "", Instant.EPOCH);

    private record Pending(Map<String, Object> reference, String type, String reason, String message, Instant time) {
    }

    private final KubernetesClient client;
    private final OperatorSettings.Posting settings;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final Thread worker;

    public EventPoster(KubernetesClient client, OperatorSettings.Posting settings) {
        this.client = client;
        this.settings = settings;
        this.worker = Thread.ofVirtual().name("kopf4j-event-poster").start(this::run);
    }

    public OperatorSettings.Posting settings() {
        return settings;
    }

    /**
     * Queues an event about the object with this reference (apiVersion, kind, name, uid, namespace).
     */
    public void post(Map<String, Object> reference, String type, String reason, String message) {
        if (settings.enabled && !"Event".equals(reference.get("kind"))) {
            queue.offer(new Pending(reference, type, reason, message, Instant.now()));
        }
    }

    /** Posts what is queued (for up to two seconds), then stops. */
    @Override
    public void close() {
        queue.offer(STOP);
        try {
            if (!worker.join(java.time.Duration.ofSeconds(2))) {
                worker.interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            while (true) {
                List<Pending> batch = new ArrayList<>();
                batch.add(queue.take());
                queue.drainTo(batch);
                for (Pending pending : batch) {
                    if (pending == STOP) {
                        return;
                    }
                    send(pending);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void send(Pending pending) {
        Object namespace = pending.reference().get("namespace");
        // Cluster-scoped objects' events go to the credentials' default namespace, as in Kopf.
        String target = namespace != null ? namespace.toString()
                : client.getNamespace() != null ? client.getNamespace() : "default";
        // Kubernetes takes whole seconds in the timestamps, microseconds in eventTime.
        String time = pending.time().truncatedTo(ChronoUnit.SECONDS).toString();
        String microTime = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX")
                .format(pending.time().atOffset(ZoneOffset.UTC));
        try {
            client.v1().events().inNamespace(target).resource(new EventBuilder()
                    .withNewMetadata().withGenerateName(settings.eventNamePrefix).withNamespace(target).endMetadata()
                    .withAction("Action?")
                    .withType(pending.type())
                    .withReason(pending.reason())
                    .withMessage(cut(pending.message()))
                    .withReportingComponent(settings.reportingComponent)
                    .withReportingInstance(settings.reportingInstance)
                    .withNewSource().withComponent(settings.reportingComponent).endSource()
                    .withNewInvolvedObject()
                    .withApiVersion((String) pending.reference().get("apiVersion"))
                    .withKind((String) pending.reference().get("kind"))
                    .withName((String) pending.reference().get("name"))
                    .withUid((String) pending.reference().get("uid"))
                    .withNamespace((String) namespace)
                    .endInvolvedObject()
                    .withFirstTimestamp(time).withLastTimestamp(time).withEventTime(new MicroTime(microTime))
                    .build()).create();
        } catch (RuntimeException e) {
            LOG.warn("Failed to post an event. Ignoring and continuing. Error: {}. Event: type={}, reason={}",
                    e.getMessage(), pending.type(), pending.reason());
        }
    }

    /** Kopf's cut: the head and the tail of a long message around {@code ...}. */
    static String cut(String message) {
        if (message == null || message.length() <= MAX_MESSAGE) {
            return message;
        }
        int half = (MAX_MESSAGE - 3) / 2;
        return message.substring(0, half) + "..." + message.substring(message.length() - (MAX_MESSAGE - 3 - half));
    }
}
