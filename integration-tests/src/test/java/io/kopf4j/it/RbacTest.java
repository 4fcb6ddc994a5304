package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.kopf4j.On;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** An operator allowed to watch but not to patch in one namespace: a clear error there, service elsewhere. */
@ExtendWith(LocalClusterExtension.class)
class RbacTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String USER = "limited-operator";

    public static class Handlers {
        @On.Create("kopfexamples")
        public String create() {
            return "created";
        }
    }

    private static void grant(LocalCluster cluster, String namespace, String... verbs) {
        cluster.client().rbac().roles().inNamespace(namespace).resource(new RoleBuilder()
                .withNewMetadata().withName("kopfexamples").endMetadata()
                .addNewRule().withApiGroups("kopf.dev").withResources("kopfexamples", "kopfexamples/status")
                .withVerbs(verbs).endRule().build()).create();
        cluster.client().rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder()
                .withNewMetadata().withName("kopfexamples").endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", "kopfexamples")
                .addNewSubject().withKind("User").withName(USER).withApiGroup("rbac.authorization.k8s.io").endSubject()
                .build()).create();
    }

    @Test
    void aForbiddenPatchIsReportedForItsObjectAndOthersAreServed(LocalCluster cluster, TemporaryNamespace readOnly,
                                                                 TemporaryNamespace writable) {
        grant(cluster, readOnly.name(), "get", "list", "watch");
        grant(cluster, writable.name(), "get", "list", "watch", "patch");
        KopfExamples forbidden = new KopfExamples(cluster, readOnly.name());
        KopfExamples allowed = new KopfExamples(cluster, writable.name());
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfigFor(USER), "run", "-n", readOnly.name(),
                "-n", writable.name(), Handlers.class.getName())) {
            forbidden.create("ex", Map.of("a", 1));
            allowed.create("ex", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(allowed.status("ex")).containsEntry("create", "created"));
            await().atMost(WAIT).until(() -> runner.output().contains("[" + readOnly.name() + "/ex] Request attempt PATCH failed"));
            assertThat(runner.output()).contains("User \"" + USER + "\" cannot patch resource \"kopfexamples/status\" in API group"
                    + " \"kopf.dev\" in the namespace \"" + readOnly.name() + "\"");
            assertThat(forbidden.status("ex")).isEmpty();
        }
    }
}
