import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs examples/10-builtins as Kopf's test_example_10.py does, against a real API server: a pod is
 * created, its killer scheduled, the pod deleted, the killer cancelled.
 */
@ExtendWith(LocalClusterExtension.class)
class BuiltinsExampleTest {
    @Test
    void aPodDeletedBeforeItsTimeCancelsItsKiller(LocalCluster cluster, TemporaryNamespace namespace) {
        KubernetesClient client = cluster.client();
        try (ExampleRun run = ExampleRun.start(cluster, namespace, "10-builtins/BuiltinsExample.java")
                .leavesUnused("delete pods in NAMESPACE", "the pod is deleted before the example's killer would delete it")) {
            Pod pod = client.pods().inNamespace(namespace.name()).resource(new PodBuilder()
                    .withNewMetadata().withGenerateName("kopf-pod-").endMetadata()
                    .withNewSpec().addNewContainer().withName("the-only-one").withImage("busybox")
                    .withCommand("sh", "-x", "-c", "sleep 1").endContainer().endSpec()
                    .build()).create();
            String prefix = "[" + namespace.name() + "/" + pod.getMetadata().getName() + "] ";
            run.awaitOutput(Pattern.quote(prefix + "=== Pod killing happens in 30s."));
            client.resource(pod).delete();
            run.awaitOutput(Pattern.quote(prefix + "=== Pod killing is cancelled!"));
            await().atMost(ExampleRun.WAIT).until(() -> client.resource(pod).get() == null);

            assertThat(run.output()).doesNotContain("=== Pod killing happens NOW!");
            run.assertSuccessCounts(Map.of("pod_in_sight", 1, "pod_deleted", 1));
            run.assertEverySuccessOnceAndNoFailures();
        }
    }
}
