package io.kopf4j.kits.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which server serves the webhooks when {@code settings.admission.server} is not set. */
class WebhookServerChoiceTest {
    @Test
    void withoutAServicesHostTheAutoServerWhichALocalClusterReaches() {
        assertThat(WebhookServerChoice.choose(Map.of())).isExactlyInstanceOf(WebhookAutoServer.class);
        assertThat(WebhookServerChoice.choose(Map.of(WebhookServerChoice.HOST_VARIABLE, " ")))
                .isExactlyInstanceOf(WebhookAutoServer.class);
    }

    @Test
    void withTheServicesHostTheFixedPortPublishedAsThatHost() {
        WebhookServer server = (WebhookServer) WebhookServerChoice.choose(
                Map.of(WebhookServerChoice.HOST_VARIABLE, " my-operator.operators.svc\n"));
        assertThat(server).isExactlyInstanceOf(WebhookServer.class);
        assertThat(server.port()).isEqualTo(9443);
        assertThat(server.host()).isEqualTo("my-operator.operators.svc");
    }
}
