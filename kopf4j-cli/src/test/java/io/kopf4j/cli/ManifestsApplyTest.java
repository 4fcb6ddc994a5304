package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code kopf4j manifests}' output, the webhook Service included, is accepted by a real API server as written. */
@ExtendWith(LocalClusterExtension.class)
class ManifestsApplyTest {
    private static final String CRD = Path.of("../examples/crd.yaml").toString();

    @TempDir
    Path dir;

    @Test
    void theWebhookServiceAndTheDeploymentApplyAndLeadToTheContainersWebhookPort(LocalCluster cluster) throws Exception {
        Main.Captured result = Main.capture("manifests", "--crd", CRD, "--name", "op", "--operator-namespace", "ops",
                ManifestsCommandTest.Admission.class.getName());
        assertThat(result.code()).as(result.err()).isZero();
        Path manifests = Files.writeString(dir.resolve("manifests.yaml"), result.out());

        cluster.apply(manifests);

        Service service = cluster.client().services().inNamespace("ops").withName("op").get();
        assertThat(service.getSpec().getSelector()).isEqualTo(Map.of("app", "op"));
        ServicePort port = service.getSpec().getPorts().getFirst();
        assertThat(port.getPort()).isEqualTo(9443);
        assertThat(port.getTargetPort()).isEqualTo(new IntOrString("webhook"));
        Deployment deployment = cluster.client().apps().deployments().inNamespace("ops").withName("op").get();
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("app", "op");
        assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().getFirst().getPorts())
                .anySatisfy(containerPort -> {
                    assertThat(containerPort.getName()).isEqualTo("webhook");
                    assertThat(containerPort.getContainerPort()).isEqualTo(9443);
                });
    }
}
