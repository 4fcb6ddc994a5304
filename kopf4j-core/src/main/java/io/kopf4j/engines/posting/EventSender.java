package io.kopf4j.engines.posting;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorSettings;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
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
        try {
            client.v1().events().inNamespace(target).resource(new EventBuilder()
                    .withNewMetadata().withGenerateName(settings.eventNamePrefix).withNamespace(target).endMetadata()
                    .withAction("Action?")
                    .withType(event.type())
                    .withReason(event.reason())
                    .withMessage(cut(event.message()))
                    .withReportingComponent(settings.reportingComponent)
                    .withReportingInstance(settings.reportingInstance)
                    .withNewSource().withComponent(settings.reportingComponent).endSource()
                    .withNewInvolvedObject()
                    .withApiVersion((String) event.reference().get("apiVersion"))
                    .withKind((String) event.reference().get("kind"))
                    .withName((String) event.reference().get("name"))
                    .withUid((String) event.reference().get("uid"))
                    .withNamespace((String) namespace)
                    .endInvolvedObject()
                    .withFirstTimestamp(time).withLastTimestamp(time).withEventTime(new MicroTime(microTime))
                    .build()).create();
        } catch (RuntimeException e) {
            LOG.warn("Failed to post an event. Ignoring and continuing. Error: {}. Event: type={}, reason={}",
                    e.getMessage(), event.type(), event.reason());
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
