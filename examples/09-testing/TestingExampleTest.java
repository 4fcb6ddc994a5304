import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kopf's test_example_09.py, as a user would write it: the LocalClusterExtension starts a
 * kube-apiserver for the test class and gives each test a namespace of its own; KopfRunner runs the
 * operator in this JVM, as {@code kopf4j run} would, and collects its log lines.
 */
@ExtendWith(LocalClusterExtension.class)
class TestingExampleTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void theOperatorHandlesTheResourceLifecycle(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        cluster.apply(Path.of("crd.yaml"));
        var examples = cluster.client().genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name());
        String prefix = "[" + namespace.name() + "/kopf-example-1] ";

        // Run an operator and simulate some activity with the operated resource.
        // Run an operator as it runs in a cluster: with only the RBAC that kopf4j manifests generates for it.
        Path kubeconfig = GeneratedRbac.kubeconfig(cluster, namespace.name(), List.of("--verbose", "--standalone", "-n", namespace.name()),
                "09-testing/TestingExample.java");
        try (KopfRunner runner = KopfRunner.start(kubeconfig, "run", "--verbose", "--standalone", "-n", namespace.name(),
                "09-testing/TestingExample.java")) {
            try (InputStream yaml = Files.newInputStream(Path.of("obj.yaml"))) {
                examples.load(yaml).create();
            }
            await().atMost(WAIT).until(() -> runner.output().contains(prefix + "Handler 'create_fn' succeeded."));
            examples.withName("kopf-example-1").delete();
            await().atMost(WAIT).until(() -> examples.withName("kopf-example-1").get() == null);

            // There are usually more than these messages, but we only check for the certain ones.
            assertThat(runner.output()).contains(prefix + "Creation is in progress:", prefix + "Something was logged here.");
            GeneratedRbac.assertNoForbidden(runner.output());
        }
        GeneratedRbac.assertCallsWithinRulesAndRulesUsed(cluster, namespace.name(), Map.of());
        // Closing the runner stopped the operator, and would have thrown what made it fail, if anything had.
    }
}
