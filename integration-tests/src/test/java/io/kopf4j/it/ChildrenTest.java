package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Children;
import io.kopf4j.Spec;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @Children} on the real API server with its controllers: the children are applied as the
 * parent's own, a child edited by hand is put back, a deleted one comes back, one no longer returned
 * is pruned, the Deployment's status reaches the parent's Ready condition without a timer, nothing is
 * written at rest, and the garbage collector takes the children with their parent.
 */
@ExtendWith(LocalClusterExtension.class)
class ChildrenTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final AtomicInteger RUNS = new AtomicInteger();

    public static class Handlers {
        @Children(value = "kopfexamples", kinds = {ConfigMap.class, Deployment.class}, readyCondition = "Ready")
        public List<HasMetadata> children(Spec spec, String name) {
            RUNS.incrementAndGet();
            List<HasMetadata> children = new ArrayList<>();
            children.add(new ConfigMapBuilder().withNewMetadata().withName(name + "-config").endMetadata()
                    .addToData("greeting", spec.getString("greeting", "hello")).build());
            if (spec.getBoolean("web", true)) {
                children.add(new DeploymentBuilder().withNewMetadata().withName(name + "-web").endMetadata()
                        .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", name).endSelector()
                        .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                        .withNewSpec().addNewContainer().withName("web").withImage("nginx").endContainer().endSpec()
                        .endTemplate().endSpec().build());
            }
            return children;
        }
    }

    /** Children that cannot be applied, and a handler that fails once, by the parent's spec. */
    public static class Failing {
        private static final AtomicInteger ATTEMPTS = new AtomicInteger();

        @Children(value = "kopfexamples", kinds = ConfigMap.class, readyCondition = "Ready", backoff = 1)
        public List<HasMetadata> children(Spec spec, String name) {
            if (spec.getBoolean("flaky", false) && ATTEMPTS.incrementAndGet() == 1) {
                throw new IllegalStateException("not yet");
            }
            ConfigMap config = new ConfigMapBuilder().withNewMetadata().withName(name + "-config").endMetadata().build();
            if (spec.getBoolean("secret", false)) {
                return List.of(config, new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata().withName(name)
                        .endMetadata().build());
            }
            return List.of(config);
        }
    }

    @Test
    void childrenThatCannotBeAppliedAreToldAndAFailedRunIsRetried(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        var configs = cluster.client().configMaps().inNamespace(namespace.name());
        try (KopfRunner runner = fixture.run(Failing.class)) {
            examples.create("kex", Map.of("secret", true));
            await().atMost(WAIT).untilAsserted(() -> assertThat(ready(examples)).containsEntry("status", "False")
                    .containsEntry("reason", "InvalidChildren"));
            assertThat(runner.output()).contains(fixture.about("kex") + "Handler 'children' returned children that cannot be"
                    + " applied: child #2, Secret '" + namespace.name() + "/kex', is of a kind the handler does not declare");
            assertThat(configs.withName("kex-config").get()).isNull();   // nothing applied from an invalid result

            examples.patch("kex", Map.of("spec", Map.of("secret", false, "flaky", true)));
            await().atMost(WAIT).until(() -> configs.withName("kex-config").get() != null);
            assertThat(runner.output()).contains(fixture.about("kex") + "Handler 'children' failed with an exception and will"
                    + " try again in 1 seconds: not yet");
            await().atMost(WAIT).untilAsserted(() -> assertThat(ready(examples)).containsEntry("status", "True"));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> ready(KopfExamples examples) {
        Object listed = examples.status("kex").get("conditions");
        return listed instanceof List<?> list ? list.stream().map(item -> (Map<String, Object>) item)
                .filter(item -> "Ready".equals(item.get("type"))).findFirst().orElse(Map.of()) : Map.of();
    }

    @Test
    void childrenAreAppliedRepairedPrunedReportedAndCollected(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        KubernetesClient client = cluster.client();
        var configs = client.configMaps().inNamespace(namespace.name());
        var deployments = client.apps().deployments().inNamespace(namespace.name());
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            String uid = examples.create("kex", Map.of("greeting", "hi")).getMetadata().getUid();

            // Applied as the parent's own: its controller, labelled as this operator's.
            await().atMost(WAIT).until(() -> configs.withName("kex-config").get() != null
                    && deployments.withName("kex-web").get() != null);
            ConfigMap config = configs.withName("kex-config").get();
            assertThat(config.getData()).containsEntry("greeting", "hi");
            assertThat(config.getMetadata().getLabels()).containsEntry("kopf4j.dev/managed-by", "kopf4j");
            assertThat(config.getMetadata().getOwnerReferences()).extracting(OwnerReference::getUid, OwnerReference::getController)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(uid, true));

            // The Deployment's Pod is Pending (no kubelet): not ready, said on the parent.
            await().atMost(WAIT).untilAsserted(() -> assertThat(ready(examples)).containsEntry("status", "False")
                    .containsEntry("reason", "ChildrenNotReady")
                    .containsEntry("message", "1/2 ready; Deployment '" + namespace.name() + "/kex-web': Available: 0/1"));
            // Its status reaches the parent through the children's watch, without a timer.
            cluster.readyPods(namespace.name(), Map.of("app", "kex"), 1);
            await().atMost(WAIT).untilAsserted(() -> assertThat(ready(examples)).containsEntry("status", "True")
                    .containsEntry("reason", "ChildrenReady").containsEntry("message", "2/2 ready"));

            // At rest, a run writes nothing: an annotation changes the parent's essence (a label would be copied to the
            // children, as adopt does), the handler runs, the children stay as they are.
            String version = configs.withName("kex-config").get().getMetadata().getResourceVersion();
            int runs = RUNS.get();
            examples.patch("kex", Map.of("metadata", Map.of("annotations", Map.of("touched", "yes"))));
            await().atMost(WAIT).until(() -> RUNS.get() > runs);
            assertThat(configs.withName("kex-config").get().getMetadata().getResourceVersion()).isEqualTo(version);

            // A hand edit is put back; others' fields (a label of the user's) are left alone.
            configs.withName("kex-config").edit(cm -> new ConfigMapBuilder(cm).addToData("greeting", "edited")
                    .editMetadata().addToLabels("users", "own").endMetadata().build());
            await().atMost(WAIT).untilAsserted(() -> assertThat(configs.withName("kex-config").get().getData())
                    .containsEntry("greeting", "hi"));
            assertThat(configs.withName("kex-config").get().getMetadata().getLabels()).containsEntry("users", "own");

            // A deleted child comes back, as a new object.
            String oldUid = configs.withName("kex-config").get().getMetadata().getUid();
            configs.withName("kex-config").delete();
            await().atMost(WAIT).until(() -> {
                ConfigMap again = configs.withName("kex-config").get();
                return again != null && !again.getMetadata().getUid().equals(oldUid);
            });

            // The essence changes the children; a child no longer returned is pruned.
            examples.patch("kex", Map.of("spec", Map.of("greeting", "bonjour", "web", false)));
            await().atMost(WAIT).until(() -> deployments.withName("kex-web").get() == null);
            assertThat(configs.withName("kex-config").get().getData()).containsEntry("greeting", "bonjour");
            await().atMost(WAIT).untilAsserted(() -> assertThat(ready(examples)).containsEntry("message", "1/1 ready"));
            assertThat(runner.output()).contains(fixture.about("kex") + "Child Deployment '" + namespace.name()
                    + "/kex-web' is deleted: Handler 'children' returns it no more.");

            // The parent's deletion takes its children, through the garbage collector.
            examples.delete("kex");
            await().atMost(Duration.ofSeconds(60)).until(() -> configs.withName("kex-config").get() == null);
        }
    }
}
