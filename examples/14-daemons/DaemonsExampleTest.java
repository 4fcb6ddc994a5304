import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs examples/14-daemons as Kopf's E2E test runs its example 14, against a real API server. */
@ExtendWith(LocalClusterExtension.class)
class DaemonsExampleTest {
    @Test
    void daemonsRetryPingAndStopWhenTheObjectIsDeleted(LocalCluster cluster, TemporaryNamespace namespace) {
        try (ExampleRun run = ExampleRun.start(cluster, namespace, "14-daemons/DaemonsExample.java")) {
            run.createObject();
            String prefix = run.prefix();
            run.awaitOutput(Pattern.quote(prefix + "=> Ping from a sync daemon: field=value, retry=3"));
            run.awaitOutput(Pattern.quote(prefix + "=> Ping from an async daemon: field=value"));
            assertThat(run.output().split("Daemon 'backgroundSync' failed temporarily: Simulated failure.", -1)).hasSize(4);

            run.deleteObject();
            assertThat(run.output()).contains(prefix + "Daemon 'backgroundAsync' is cancelled. Will escalate.",
                    prefix + "Daemon 'backgroundSync' succeeded.");
            assertThat(run.output().split("Daemon 'backgroundSync' succeeded.", -1)).hasSize(2);
            run.assertFailureCounts(Map.of());
        }
    }
}
