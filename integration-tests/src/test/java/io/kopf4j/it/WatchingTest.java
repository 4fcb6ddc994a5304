package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kopf4j.Handler;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/** The inactivity watchdog reconnects silent watch streams without losing events. */
@ExtendWith(LocalClusterExtension.class)
class WatchingTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aSilentStreamIsReconnectedAndEventsStillArrive(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        Logger watcherLogger = (Logger) LoggerFactory.getLogger("io.kopf4j.reactor.ResourceWatcher");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        Level level = watcherLogger.getLevel();
        watcherLogger.setLevel(Level.DEBUG);
        watcherLogger.addAppender(lines);
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        OperatorSettings settings = new OperatorSettings();
        settings.watching.inactivityTimeout = Duration.ofSeconds(1);
        try (Operator operator = Operator.builder()
                .handler(Handler.create("kopfexamples").id("create").handle(context -> "created"))
                .namespaces(namespace.name()).kubeconfig(cluster.kubeconfig()).settings(settings).build()) {
            operator.start();
            await().atMost(WAIT).until(() -> lines.list.stream().anyMatch(line ->
                    line.getFormattedMessage().contains("nothing came for 1 s, not even a bookmark; reconnecting")));
            examples.create("after-reconnect", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("after-reconnect")).containsEntry("create", "created"));
        } finally {
            watcherLogger.detachAppender(lines);
            watcherLogger.setLevel(level);
        }
    }
}
