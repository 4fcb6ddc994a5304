import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs examples/15-timers as Kopf's E2E test runs its example 15, against a real API server. */
@ExtendWith(LocalClusterExtension.class)
class TimersExampleTest {
    @Test
    void timersPingOnceTheObjectIsQuietAndStopWhenItIsDeleted(LocalCluster cluster, TemporaryNamespace namespace) {
        try (ExampleRun run = ExampleRun.start(cluster, namespace, "15-timers/TimersExample.java")) {
            run.createObject();
            run.awaitOutput(Pattern.quote(run.prefix() + "Ping from a sync timer: field=value"));
            run.awaitOutput(Pattern.quote(run.prefix() + "Ping from an async timer: field=value"));
            run.deleteObject();
            run.assertFailureCounts(Map.of());
        }
    }
}
