package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Handler;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The inactivity watchdog reconnects silent watch streams without losing events. */
@ExtendWith(LocalClusterExtension.class)
class WatchingTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aSilentStreamIsReconnectedAndEventsStillArrive(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorSettings settings = new OperatorSettings();
        settings.watching.inactivityTimeout = Duration.ofSeconds(1);
        eventsStillFlowAfter(cluster, namespace, settings, "Watch-stream for kopfexamples.v1.kopf.dev in '" + namespace.name()
                + "' is inactive, reconnecting.");
    }

    @Test
    void aWatchClosedByTheClientTimeoutIsResumedWithoutLosingEvents(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorSettings settings = new OperatorSettings();
        settings.watching.clientTimeout = Duration.ofSeconds(2);
        settings.watching.connectTimeout = Duration.ofSeconds(5);
        eventsStillFlowAfter(cluster, namespace, settings, "Watching kopfexamples.v1.kopf.dev in " + namespace.name()
                + ": the client-side timeout of 2 s passed; resuming");
    }

    @Test
    void aWatchClosedByTheServerTimeoutIsResumedWithoutLosingEvents(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorSettings settings = new OperatorSettings();
        settings.watching.serverTimeout = Duration.ofSeconds(1);
        eventsStillFlowAfter(cluster, namespace, settings, "Watching kopfexamples.v1.kopf.dev in " + namespace.name()
                + ": the server ended the stream; watching again from");
    }

    @Test
    void aWatchEndedByTheServerWithoutAMessageIsWatchedAgainNotListedAgain(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorSettings settings = new OperatorSettings();
        settings.watching.serverTimeout = Duration.ofSeconds(1);
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        String watching = "Watching kopfexamples.v1.kopf.dev in " + namespace.name() + ": ";
        try (CapturedLogs lines = new CapturedLogs("io.kopf4j.internal.watching.ResourceWatcher");
             Operator operator = fixture.start(fixture.operator().settings(settings)
                     .handler(Handler.create("kopfexamples").id("create").handle(context -> "created")))) {
            // Each watch ends after a second without a message: the version is still valid, so no re-list
            // (fabric8's watch took such an end for a 410 and re-listed).
            await().atMost(WAIT).until(() -> lines.count(watching + "the server ended the stream; watching again from") >= 3);
            assertThat(lines.count("Restarting the watch-stream for kopfexamples.v1.kopf.dev in '" + namespace.name() + "'."))
                    .as("re-lists").isZero();
        }
    }

    private static void eventsStillFlowAfter(LocalCluster cluster, TemporaryNamespace namespace, OperatorSettings settings,
                                             String logLine) throws InterruptedException {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (CapturedLogs lines = new CapturedLogs("io.kopf4j.internal.watching.ResourceWatcher");
             Operator operator = fixture.start(fixture.operator().settings(settings)
                     .handler(Handler.create("kopfexamples").id("create").handle(context -> "created")))) {
            await().atMost(WAIT).until(() -> lines.contains(logLine));
            examples.create("after-timeouts", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("after-timeouts")).containsEntry("create", "created"));
        }
    }

    @Test
    void theInitialListingComesInPages(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        for (int i = 0; i < 5; i++) {
            examples.create("listed-" + i, Map.of("i", i));
        }
        OperatorSettings settings = new OperatorSettings();
        settings.watching.listPageSize = 2;
        try (Operator operator = fixture.start(fixture.operator().settings(settings)
                .handler(Handler.create("kopfexamples").id("create").handle(context -> "created")))) {
            await().atMost(WAIT).untilAsserted(() -> {
                for (int i = 0; i < 5; i++) {
                    assertThat(examples.status("listed-" + i)).containsEntry("create", "created");
                }
            });
        }
    }
}
