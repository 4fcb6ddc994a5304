import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs examples/01-minimal/Example.java as `kopf4j run` does, against a real API server. */
@ExtendWith(LocalClusterExtension.class)
class MinimalExampleTest {
    private static final String EXAMPLE = "01-minimal/Example.java";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private LocalCluster cluster;
    private String namespace;

    @BeforeEach
    void setUp(LocalCluster cluster, TemporaryNamespace namespace) {
        this.cluster = cluster;
        this.namespace = namespace.name();
        cluster.apply(Path.of("crd.yaml"));
    }

    @Test
    void handlesCreationOnceStoresTheResultAndDoesNotRepeatAfterARestart() throws Exception {
        Path kubeconfig = GeneratedRbac.kubeconfig(cluster, namespace, List.of("-v", "--standalone", "-n", namespace), EXAMPLE);
        try (KopfRunner runner = KopfRunner.start(kubeconfig, "run", "-v", "--standalone", "-n", namespace, EXAMPLE)) {
            createExample();
            String prefix = "[" + namespace + "/kopf-example-1] ";
            await().atMost(WAIT).until(() -> runner.output().contains(prefix + "Handler 'create' succeeded."));
            assertThat(runner.output()).contains(prefix + "Created kopf-example-1 with spec: "
                    + "{\"duration\":\"1m\",\"field\":\"value\",\"items\":[\"item1\",\"item2\"]}");
            assertThat(runner.output()).contains(prefix + "Creation is processed: 1 succeeded; 0 failed.");

            await().atMost(WAIT).untilAsserted(() -> assertThat(example().getAdditionalProperties().get("status"))
                    .isEqualTo(Map.of("create", Map.of("message", "Resource kopf-example-1 created successfully"))));
            assertThat(example().getMetadata().getAnnotations()).containsEntry("kopf.zalando.org/last-handled-configuration",
                    "{\"spec\":{\"duration\":\"1m\",\"field\":\"value\",\"items\":[\"item1\",\"item2\"]},"
                            + "\"metadata\":{\"labels\":{\"somelabel\":\"somevalue\"},\"annotations\":{\"someannotation\":\"somevalue\"}}}\n");
            // Our own PATCH comes back as a watch event; it must be recognised as handled: a cycle that patches
            // nothing, which Kopf ends with this line.
            await().atMost(WAIT).until(() -> count(runner.output(), prefix + "Handling cycle is finished") >= 1);
            assertThat(count(runner.output(), prefix + "Handler 'create' succeeded.")).isEqualTo(1);
            GeneratedRbac.assertNoForbidden(runner.output());
        }

        try (KopfRunner restarted = KopfRunner.start(kubeconfig, "run", "-v", "--standalone", "-n", namespace, EXAMPLE)) {
            assertThat(restarted.awaitListed(WAIT)).isTrue();
            await().atMost(WAIT).until(() -> restarted.output().contains("[" + namespace + "/kopf-example-1] Handling cycle is finished"));
            assertThat(restarted.output()).doesNotContain("Created kopf-example-1").doesNotContain("Handler 'create'");
            GeneratedRbac.assertNoForbidden(restarted.output());
        }
        GeneratedRbac.assertCallsWithinRulesAndRulesUsed(cluster, namespace, Map.of());
    }

    private void createExample() throws Exception {
        try (InputStream yaml = Files.newInputStream(Path.of("obj.yaml"))) {
            client().genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace).load(yaml).create();
        }
    }

    private GenericKubernetesResource example() {
        return client().genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace)
                .withName("kopf-example-1").get();
    }

    private KubernetesClient client() {
        return cluster.client();
    }

    private static int count(String text, String fragment) {
        Matcher matcher = Pattern.compile(Pattern.quote(fragment)).matcher(text);
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }
}
