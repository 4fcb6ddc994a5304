import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kopf4j.envtest.DefaultKubeconfig;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.internal.loading.HandlerSources;
import io.kopf4j.testing.HandlerOutcomes;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * Runs examples/12-embedded's main() in this JVM, as an application would run it, against a real
 * API server: the source is compiled as {@code kopf4j run} compiles it, and the kubeconfig is the
 * local cluster's, as if it were the user's.
 */
@ExtendWith(LocalClusterExtension.class)
class EmbeddedExampleTest {
    @Test
    void theEmbeddedOperatorGreetsEachObjectOnceAndStopsWithTheApplication(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        cluster.apply(Path.of("crd.yaml"));
        Class<?> example = HandlerSources.load(List.of("12-embedded/EmbeddedExample.java"), List.of()).get(0);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        log.start();
        root.addAppender(log);
        try (DefaultKubeconfig kubeconfig = DefaultKubeconfig.use(cluster.kubeconfig())) {
            example.getMethod("main", String[].class).invoke(null, (Object) new String[] {namespace.name()});
        } finally {
            root.detachAppender(log);
        }

        String output = log.list.stream().map(ILoggingEvent::getFormattedMessage).collect(Collectors.joining("\n"));
        assertThat(output).contains("Starting the main app.", "Exiting the main app.",
                "Hello, kopf-example-0!", "Good bye, kopf-example-0!",
                "Hello, kopf-example-1!", "Good bye, kopf-example-1!",
                "Hello, kopf-example-2!", "Good bye, kopf-example-2!");
        // Each object has its own create_fn and delete_fn, each once.
        ExampleRun.assertSuccessCounts(output, Map.of("create_fn", 3, "delete_fn", 3));
        assertThat(HandlerOutcomes.failures(output)).isEmpty();
    }
}
