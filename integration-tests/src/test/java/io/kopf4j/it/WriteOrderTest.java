package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Crash safety between the two writes of a cycle: the handler's result ({@code /status}) is written
 * before the diff-base (the body), so when the second write never happens the object is not marked
 * as handled, and its handler runs again, as Kopf's at-least-once contract promises. Made
 * deterministic with RBAC: the operator may patch the body but not the status, until granted.
 */
@ExtendWith(LocalClusterExtension.class)
class WriteOrderTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String USER = "status-less-operator";

    public static class Handlers {
        @On.Startup
        public void fastFailures(OperatorSettings settings) {
            settings.networking.errorBackoffs = List.of();
            settings.queueing.errorDelays = List.of(Duration.ofMillis(200));
        }

        @On.Create("kopfexamples")
        public String create() {
            return "created";
        }
    }

    private static void grant(LocalCluster cluster, String namespace, String name, String resource, String... verbs) {
        cluster.client().rbac().roles().inNamespace(namespace).resource(new RoleBuilder()
                .withNewMetadata().withName(name).endMetadata()
                .addNewRule().withApiGroups("kopf.dev").withResources(resource).withVerbs(verbs).endRule().build()).create();
        cluster.client().rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder()
                .withNewMetadata().withName(name).endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", name)
                .addNewSubject().withKind("User").withName(USER).withApiGroup("rbac.authorization.k8s.io").endSubject()
                .build()).create();
    }

    @Test
    void anObjectWhoseResultWasNotWrittenIsHandledAgain(LocalCluster cluster, TemporaryNamespace namespace) {
        grant(cluster, namespace.name(), "body", "kopfexamples", "get", "list", "watch", "patch");
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfigFor(USER), "run", "--no-preflight", "-n", namespace.name(),
                Handlers.class.getName())) {
            examples.create("ex", Map.of("size", 1));
            await().atMost(WAIT).until(() -> runner.output().contains("Throttling for 0.2 seconds due to an unexpected error"));
            assertThat(examples.annotations("ex")).as("not marked as handled while its result is not stored")
                    .doesNotContainKey("kopf.zalando.org/last-handled-configuration");

            grant(cluster, namespace.name(), "status", "kopfexamples/status", "patch");
            examples.patch("ex", Map.of("metadata", Map.of("labels", Map.of("nudge", "1"))));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(examples.status("ex")).containsEntry("create", "created");
                assertThat(examples.annotations("ex")).containsKey("kopf.zalando.org/last-handled-configuration");
            });
            // The object's own lines: the Events' failed posts repeat the message in Kopf's warning.
            assertThat(KopfExamples.count(runner.output(), "[" + namespace.name() + "/ex] Handler 'create' succeeded."))
                    .as("run again after the failed write")
                    .isEqualTo(2);
        }
    }
}
