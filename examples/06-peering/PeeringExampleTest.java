import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs examples/06-peering as its README tells (Kopf's E2E test runs every example with
 * --standalone, so it has no peering scenario of its own): an operator, then a --dev one, which
 * alone handles the object, then the first resumes when the --dev one exits. Only the CRDs of
 * peering/peering.yaml are applied, and the peering object is the test namespace's: a cluster-wide
 * "default" object would pause the cluster-wide operators of other tests.
 */
@ExtendWith(LocalClusterExtension.class)
class PeeringExampleTest {
    private static final String EXAMPLE = "06-peering/PeeringExample.java";

    @TempDir
    Path dir;

    @Test
    void theDevOperatorAloneHandlesAndTheOtherResumesWhenItExits(LocalCluster cluster, TemporaryNamespace namespace)
            throws IOException {
        installPeering(cluster, namespace.name());
        try (ExampleRun deployed = ExampleRun.startWithPeering(cluster, namespace, EXAMPLE)) {
            try (ExampleRun dev = ExampleRun.startWithPeering(cluster, namespace, EXAMPLE, "--dev")) {
                deployed.awaitOutput(Pattern.quote("Pausing operations in favour of [<Peer ") + "[^:]+: priority=666, lifetime=60, ");
                dev.createObject();
                dev.awaitOutput(Pattern.quote(dev.prefix() + "Handler 'create_fn' succeeded."));
                assertThat(deployed.output()).doesNotContain(deployed.prefix());
                dev.assertEverySuccessOnceAndNoFailures();
            }
            deployed.awaitOutput(Pattern.quote("Resuming operations after the pause."));
            // Resumed, it lists the object again and finds it handled by the other operator: nothing to run.
            deployed.awaitOutput(Pattern.quote(deployed.prefix() + "Handling cycle is finished"));
            assertThat(deployed.successCounts()).doesNotContainKey("create_fn");
            deployed.deleteObject();
        }
    }

    /** The peering CRDs of peering/peering.yaml and a KopfPeering "default" in the namespace. */
    private void installPeering(LocalCluster cluster, String namespace) throws IOException {
        Path crds = dir.resolve("peering-crds.yaml");
        StringBuilder yaml = new StringBuilder();
        try (InputStream all = Files.newInputStream(Path.of("../peering/peering.yaml"))) {
            cluster.client().load(all).items().stream()
                    .filter(item -> item.getKind().equals("CustomResourceDefinition"))
                    .forEach(crd -> yaml.append(cluster.client().getKubernetesSerialization().asYaml(crd)).append("\n---\n"));
        }
        cluster.apply(Files.writeString(crds, yaml));
        cluster.client().genericKubernetesResources("kopf.dev/v1", "KopfPeering").inNamespace(namespace)
                .resource(new GenericKubernetesResourceBuilder().withApiVersion("kopf.dev/v1").withKind("KopfPeering")
                        .withNewMetadata().withName("default").endMetadata().build())
                .create();
    }
}
