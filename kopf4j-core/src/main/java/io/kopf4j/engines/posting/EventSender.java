package io.kopf4j.engines.posting;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.clients.ApiRequest;
import io.kopf4j.structs.Json;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates one Kubernetes Event as Kopf's {@code post_event}: messages over 1024 characters cut in
 * the middle, events of cluster-scoped objects in the credentials' default namespace, failures
 * logged as warnings only (events are auxiliary; they must not fail the handling).
 */
final class EventSender implements Consumer<K8sEvent> {
    private static final Logger LOG = LoggerFactory.getLogger(EventPoster.class);
    private static final int MAX_MESSAGE = 1024;
    private static final Resource EVENTS = new Resource("", "v1", "events", "Event", "event",
            List.of("ev"), List.of(), List.of(), true, true, List.of("create"));
    private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX");

    private final KubernetesClient client;
    private final OperatorSettings.Posting settings;

    EventSender(KubernetesClient client, OperatorSettings.Posting settings) {
        this.client = client;
        this.settings = settings;
    }

    @Override
    public void accept(K8sEvent event) {
        Object namespace = event.reference().get("namespace");
        // Cluster-scoped objects' events go to the credentials' default namespace, as in Kopf.
        String target = namespace != null ? namespace.toString()
                : client.getNamespace() != null ? client.getNamespace() : "default";
        // Kubernetes takes whole seconds in the timestamps, microseconds in eventTime.
        String time = event.time().truncatedTo(ChronoUnit.SECONDS).toString();
        String microTime = MICRO_TIME.format(event.time().atOffset(ZoneOffset.UTC));
        Map<String, Object> involved = new LinkedHashMap<>();
        for (String field : List.of("apiVersion", "kind", "name", "uid", "namespace")) {
            if (event.reference().get(field) != null) {
                involved.put(field, event.reference().get(field));
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("apiVersion", "v1");
        body.put("kind", "Event");
        body.put("metadata", Map.of("generateName", settings.eventNamePrefix, "namespace", target));
        body.put("action", "Action?");
        body.put("type", event.type());
        body.put("reason", event.reason());
        body.put("message", cut(event.message()));
        body.put("reportingComponent", settings.reportingComponent);
        body.put("reportingInstance", settings.reportingInstance);
        body.put("source", Map.of("component", settings.reportingComponent));
        body.put("involvedObject", involved);
        body.put("firstTimestamp", time);
        body.put("lastTimestamp", time);
        body.put("eventTime", microTime);
        body.values().removeIf(Objects::isNull);
        try {
            // Over the client's connection as plain JSON: fabric8's Event model would build, serialize
            // and parse back every event, the larger part of posting's CPU (docs/performance.md).
            ApiRequest.collection(client, EVENTS, target).send("POST", ApiRequest.CREATE, Json.compact(body));
        } catch (RuntimeException e) {
            warnOfFailure(e, "Event: type=" + Json.pythonRepr(event.type()) + ", reason=" + Json.pythonRepr(event.reason())
                    + ", message=" + Json.pythonRepr(body.get("message")) + ".");
        }
    }

    /** Kopf's warnings: with the API's status if it answered, else only the event. */
    private static void warnOfFailure(RuntimeException e, String event) {
        Status status = e instanceof KubernetesClientException answered && answered.getCode() > 0 ? answered.getStatus() : null;
        if (status == null) {
            LOG.warn("Failed to post an event. Ignoring and continuing. {}", event);
            return;
        }
        // Kopf's line, with no space between the details and the event.
        LOG.warn("Failed to post an event. Ignoring and continuing. Code: {}. Message: {}. Details: {}{}",
                Objects.requireNonNullElse(status.getCode(), "None"), Objects.requireNonNullElse(status.getMessage(), "None"),
                status.getDetails() == null ? "None" : Json.pythonRepr(Json.mapper().convertValue(status.getDetails(), Map.class)),
                event);
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
