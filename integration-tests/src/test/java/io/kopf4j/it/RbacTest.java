package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
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

    @Test
    void aForbiddenPatchIsReportedForItsObjectAndOthersAreServed(LocalCluster cluster, TemporaryNamespace readOnly,
                                                                 TemporaryNamespace writable) {
        OperatorFixture inReadOnly = new OperatorFixture(cluster, readOnly);
        OperatorFixture inWritable = new OperatorFixture(cluster, writable);
        inReadOnly.grant(USER, "get", "list", "watch");
        inWritable.grant(USER, "get", "list", "watch", "patch");
        KopfExamples forbidden = inReadOnly.examples();
        KopfExamples allowed = inWritable.examples();
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfigFor(USER), "run", "--no-preflight", "-n", readOnly.name(),
                "-n", writable.name(), Handlers.class.getName())) {
            forbidden.create("ex", Map.of("a", 1));
            allowed.create("ex", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(allowed.status("ex")).containsEntry("create", "created"));
            // Kopf's line, with the request's URL, and the reason the API server gives.
            String status = cluster.serverUrl() + "/apis/kopf.dev/v1/namespaces/" + readOnly.name() + "/kopfexamples/ex/status";
            await().atMost(WAIT).until(() -> runner.output().contains(inReadOnly.about("ex")
                    + "Request attempt #1/9 failed; will retry: PATCH " + status + " -> HTTP 403: "));
            assertThat(runner.output()).contains("User \"" + USER + "\" cannot patch resource \"kopfexamples/status\" in API group"
                    + " \"kopf.dev\" in the namespace \"" + readOnly.name() + "\"");
            // kopf4j's hint after Kopf's text: the missing permission, and the command that lists them all.
            assertThat(runner.output()).contains(" in the namespace \"" + readOnly.name() + "\" [RBAC: the operator lacks patch on"
                    + " kopfexamples/status (group kopf.dev) in namespace '" + readOnly.name() + "'; kopf4j check-rbac lists what"
                    + " it lacks, kopf4j manifests generates the rules]");
            assertThat(forbidden.status("ex")).isEmpty();
            // Posting Events is not allowed either: Kopf's warning, the handling goes on.
            assertThat(runner.output()).contains("Failed to post an event. Ignoring and continuing. Code: 403. Message: events"
                    + " is forbidden: User \"" + USER + "\" cannot create resource \"events\" in API group \"\" in the namespace \""
                    + writable.name() + "\". Details: {'kind': 'events'}Event: type='Normal', reason='Logging',"
                    + " message=\"Handler 'create' succeeded.\".");
        }
    }

    @Test
    void withoutPermissionsToListNamespacesAndCrdsTheExactNamesAreServedWithKopfsWarnings(LocalCluster cluster,
                                                                                           TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        fixture.grant(USER, "get", "list", "watch", "patch");
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfigFor(USER), "run", "--no-preflight", "-n", namespace.name(),
                "-n", "absent-*", Handlers.class.getName())) {
            fixture.examples().create("ex", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("ex")).containsEntry("create", "created"));
            assertThat(runner.output())
                    .contains("Not enough permissions to list namespaces. Falling back to a list of namespaces which are"
                            + " assumed to exist: {'" + namespace.name() + "'}")
                    .contains("Not enough permissions to watch for resources: changes (creation/deletion/updates) will not"
                            + " be noticed; the resources are only refreshed on operator restarts.");
        }
    }
}
