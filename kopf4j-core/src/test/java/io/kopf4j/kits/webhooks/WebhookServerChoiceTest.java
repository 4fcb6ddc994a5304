package io.kopf4j.kits.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.OperatorException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which server serves the webhooks when {@code settings.admission.server} is not set. */
class WebhookServerChoiceTest {
    @Test
    void outsideAPodTheAutoServerWhichALocalClusterReaches() {
        assertThat(WebhookServerChoice.choose(false, Map.of(WebhookServerChoice.HOST_VARIABLE, "ignored.ops.svc")))
                .isExactlyInstanceOf(WebhookAutoServer.class);
    }

    @Test
    void inAPodTheFixedPortPublishedAsTheServicesHostTheDeploymentNames() {
        WebhookServer server = (WebhookServer) WebhookServerChoice.choose(true,
                Map.of(WebhookServerChoice.HOST_VARIABLE, " my-operator.operators.svc\n"));
        assertThat(server).isExactlyInstanceOf(WebhookServer.class);
        assertThat(server.port()).isEqualTo(9443);
        assertThat(server.host()).isEqualTo("my-operator.operators.svc");
    }

    @Test
    void inAPodWithoutTheServicesHostOneErrorSaysWhatToSet() {
        assertThatThrownBy(() -> WebhookServerChoice.choose(true, Map.of()))
                .isInstanceOf(OperatorException.class)
                .hasMessage("In a pod, the webhook server is published as the host of the Service in front of it: set"
                        + " $KOPF4J_WEBHOOK_HOST to NAME.NAMESPACE.svc (the Deployment of kopf4j manifests does), or"
                        + " settings.admission.server");
    }
}
