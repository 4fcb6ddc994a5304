package io.kopf4j.kits.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void aMalformedServicesHostIsOneErrorNamingTheVariable() {
        assertThatThrownBy(() -> WebhookServerChoice.choose(Map.of(WebhookServerChoice.HOST_VARIABLE, "https://op.ops.svc")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid $KOPF4J_WEBHOOK_HOST: host must be a host name or an IP address, without a scheme, port or path;"
                        + " got 'https://op.ops.svc'");
    }
}
