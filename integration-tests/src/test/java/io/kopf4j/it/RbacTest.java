package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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

    @Test
    void aForbiddenPatchIsReportedForItsObjectAndOthersAreServed(LocalCluster cluster, TemporaryNamespace readOnly,
                                                                 TemporaryNamespace writable) {
        OperatorFixture inReadOnly = new OperatorFixture(cluster, readOnly);
        OperatorFixture inWritable = new OperatorFixture(cluster, writable);
        inReadOnly.grant(USER, "get", "list", "watch");
        inWritable.grant(USER, "get", "list", "watch", "patch");
        KopfExamples forbidden = inReadOnly.examples();
        KopfExamples allowed = inWritable.examples();
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfigFor(USER), "run", "-n", readOnly.name(),
                "-n", writable.name(), Handlers.class.getName())) {
            forbidden.create("ex", Map.of("a", 1));
            allowed.create("ex", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(allowed.status("ex")).containsEntry("create", "created"));
            await().atMost(WAIT).until(() -> runner.output().contains(inReadOnly.about("ex") + "Request attempt PATCH failed"));
            assertThat(runner.output()).contains("User \"" + USER + "\" cannot patch resource \"kopfexamples/status\" in API group"
                    + " \"kopf.dev\" in the namespace \"" + readOnly.name() + "\"");
            assertThat(forbidden.status("ex")).isEmpty();
        }
    }
}
