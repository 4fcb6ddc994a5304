package io.kopf4j.internal.engines.posting;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.OperatorSettings;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventSenderTest {
    @Test
    void longMessagesKeepTheirHeadAndTail() {
        String message = "h".repeat(600) + "m".repeat(1000) + "t".repeat(600);
        String cut = EventSender.cut(message);
        assertThat(cut).hasSize(1024).startsWith("h".repeat(510) + "...").endsWith("t".repeat(511));
        assertThat(EventSender.cut("short")).isEqualTo("short");
    }

    @Test
    void theEventsFieldsAreTheSettingsOnesWhenChanged() {
        OperatorSettings.Posting settings = new OperatorSettings.Posting();
        settings.reportingComponent = "shop-operator";
        settings.reportingInstance = "shop-operator-0";
        settings.eventNamePrefix = "shop-event-";
        EventWrite write = new EventWrite(Map.of("apiVersion", "v1", "kind", "ConfigMap", "name", "cm", "uid", "u1"),
                "Normal", "Reason", "message", 1, Instant.EPOCH, Instant.EPOCH, null);

        Map<String, Object> event = new EventSender(null, settings).event(write, "shop");

        assertThat(event).containsEntry("reportingComponent", "shop-operator")
                .containsEntry("reportingInstance", "shop-operator-0")
                .containsEntry("source", Map.of("component", "shop-operator"))
                .containsEntry("metadata", Map.of("generateName", "shop-event-", "namespace", "shop"));
    }
}
