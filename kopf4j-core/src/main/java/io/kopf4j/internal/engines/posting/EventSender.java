package io.kopf4j.internal.engines.posting;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.clients.ApiRequest;
import io.kopf4j.internal.structs.Json;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one Kubernetes Event: a new one as Kopf's {@code post_event} (messages over 1024
 * characters cut in the middle, events of cluster-scoped objects in the credentials' default
 * namespace), with its {@code count}; a new count of a posted one as client-go's event recorder, a
 * PATCH of {@code count}, {@code lastTimestamp} and {@code message}, or a new Event with the count
 * if the posted one is gone (the API server deletes Events an hour old by default). Kopf's RBAC
 * allows only {@code create} on events: once a PATCH is forbidden, every write is a new Event with
 * the count so far, after one warning.
 */
final class EventSender implements EventWriter {
    private static final int MAX_MESSAGE = 1024;
    private static final Resource EVENTS = new Resource("", "v1", "events", "Event", "event",
            List.of("ev"), List.of(), List.of(), true, true, List.of("create", "patch"));
    private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX");
    private static final Logger LOG = LoggerFactory.getLogger(EventPoster.class);
    private static final int FORBIDDEN = 403;
    private static final int NOT_FOUND = 404;

    private final KubernetesClient client;
    private final OperatorSettings.Posting settings;
    /** Written by the poster's thread only. */
    private boolean patchForbidden;

    EventSender(KubernetesClient client, OperatorSettings.Posting settings) {
        this.client = client;
        this.settings = settings;
    }

    @Override
    public String write(EventWrite write) {
        Object namespace = write.reference().get("namespace");
        // Cluster-scoped objects' events go to the credentials' default namespace, as in Kopf.
        String target = namespace != null ? namespace.toString()
                : client.getNamespace() != null ? client.getNamespace() : "default";
        // Over the client's connection as plain JSON: fabric8's Event model would build, serialize
        // and parse back every event, the larger part of posting's CPU (docs/performance.md).
        if (write.name() != null && !patchForbidden) {
            try {
                ApiRequest.object(client, EVENTS, target, write.name())
                        .send("PATCH", ApiRequest.MERGE, Json.compact(count(write)));
                return write.name();
            } catch (KubernetesClientException e) {
                if (e.getCode() == FORBIDDEN) {
                    patchForbidden = true;
                    LOG.warn("Kubernetes Events cannot be patched ({}). Repeated events are posted as new Events with their"
                            + " count from now on; allow the verb patch on events to count them in one Event.",
                            e.getStatus() != null ? e.getStatus().getMessage() : e.getMessage());
                } else if (e.getCode() != NOT_FOUND) {
                    throw e;
                }
            }
        }
        Map<String, Object> created = ApiRequest.collection(client, EVENTS, target)
                .send("POST", ApiRequest.CREATE, Json.compact(event(write, target)));
        return String.valueOf(((Map<?, ?>) created.get("metadata")).get("name"));
    }

    /** Kopf's Event, with the count of its occurrences so far. */
    Map<String, Object> event(EventWrite write, String target) {
        Map<String, Object> involved = new LinkedHashMap<>();
        for (String field : List.of("apiVersion", "kind", "name", "uid")) {
            if (write.reference().get(field) != null) {
                involved.put(field, write.reference().get(field));
            }
        }
        // The Event's own namespace, also for a cluster-scoped object (Kopf's full_ref): the API server
        // refuses an Event whose involved object's namespace differs from its own (422).
        involved.put("namespace", target);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("apiVersion", "v1");
        body.put("kind", "Event");
        body.put("metadata", Map.of("generateName", settings.eventNamePrefix, "namespace", target));
        body.put("action", "Action?");
        body.put("type", write.type());
        body.put("reason", write.reason());
        body.put("message", cut(write.message()));
        body.put("reportingComponent", settings.reportingComponent);
        body.put("reportingInstance", settings.reportingInstance);
        body.put("source", Map.of("component", settings.reportingComponent));
        body.put("involvedObject", involved);
        body.put("count", write.count());
        body.put("firstTimestamp", seconds(write.firstTimestamp()));
        body.put("lastTimestamp", seconds(write.lastTimestamp()));
        body.put("eventTime", MICRO_TIME.format(write.firstTimestamp().atOffset(ZoneOffset.UTC)));
        body.values().removeIf(Objects::isNull);
        return body;
    }

    /** client-go's patch of a repeated Event: what changes with each occurrence. */
    private static Map<String, Object> count(EventWrite write) {
        Map<String, Object> patch = new LinkedHashMap<>();
        patch.put("count", write.count());
        patch.put("lastTimestamp", seconds(write.lastTimestamp()));
        patch.put("message", cut(write.message()));
        return patch;
    }

    /** Kubernetes takes whole seconds in the timestamps (microseconds in eventTime). */
    private static String seconds(Instant time) {
        return time.truncatedTo(ChronoUnit.SECONDS).toString();
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
