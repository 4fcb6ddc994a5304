package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.internal.reactor.orchestration.Orchestrator;
import io.kopf4j.internal.reactor.orchestration.WatcherKey;
import io.kopf4j.internal.reactor.queueing.ObjectQueues;
import io.kopf4j.internal.reactor.queueing.Progress;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import io.kopf4j.internal.selection.Selections;
import io.kopf4j.internal.watching.ResourceWatcher;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Pause and resume of the watchers, the hook of peering, leader election and sharding: a paused
 * operator watches nothing, and resuming lists every resource again.
 */
@ExtendWith(LocalClusterExtension.class)
class OrchestratorTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of("status"), true, true, List.of("list", "watch", "patch"));

    /** What the queues received: "name:type" (type null for a listed object). */
    private final List<String> seen = new CopyOnWriteArrayList<>();

    private Orchestrator orchestrator(LocalCluster cluster) {
        OperatorSettings settings = new OperatorSettings();
        OperatorThreads threads = new OperatorThreads("orchestrator-test");
        return new Orchestrator(cluster.client(), threads, settings, new Metrics(null), Selections.NONE, resource -> false,
                resource -> new ObjectQueues(resource, (event, pressure, deadline) -> {
                    seen.add(event.name() + ":" + event.type());
                    return null;
                }, threads, settings, new Progress(), new Metrics(null), error -> { }));
    }

    /** Kopf's lines of the watch-streams ({@code kopf.clients.watching}) so far. */
    private static List<String> streamLines(CapturedLogs lines) {
        return lines.messages().stream().filter(line -> line.contains("watch-stream")).toList();
    }

    @Test
    void aPausedOperatorWatchesNothingAndResumingListsAgain(LocalCluster cluster, TemporaryNamespace namespace)
            throws InterruptedException {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        Orchestrator orchestrator = orchestrator(cluster);
        String stream = "kopfexamples.v1.kopf.dev in '" + namespace.name() + "'";
        try (CapturedLogs lines = new CapturedLogs(ResourceWatcher.class.getName())) {
            orchestrator.ensure(new WatcherKey(KOPFEXAMPLES, namespace.name()));
            assertThat(orchestrator.awaitListed(System.nanoTime() + WAIT.toNanos())).isTrue();
            examples.create("before", Map.of());
            await().atMost(WAIT).until(() -> seen.contains("before:ADDED"));

            orchestrator.pause("peering");
            orchestrator.pause("leadership");
            assertThat(orchestrator.paused()).isTrue();
            examples.create("during", Map.of());
            orchestrator.resume("peering");
            assertThat(orchestrator.paused()).as("still paused by the leadership").isTrue();
            orchestrator.resume("leadership");
            assertThat(orchestrator.paused()).isFalse();

            await().atMost(WAIT).until(() -> seen.stream().anyMatch(line -> line.startsWith("during:")));
            assertThat(seen.stream().filter(line -> line.startsWith("during:")).findFirst())
                    .as("created while paused: not watched, but found by the listing on resume").contains("during:null");
            assertThat(seen).as("everything listed again on resume").contains("before:null");

            orchestrator.stop();
            assertThat(streamLines(lines)).as("Kopf's lines").containsExactly(
                    "Starting the watch-stream for " + stream + ".",
                    "Pausing the watch-stream for " + stream + " (blockers: peering).",
                    "Resuming the watch-stream for " + stream + ".",
                    "Stopping the watch-stream for " + stream + ".");
        } finally {
            orchestrator.stop();
        }
    }

    /** A standby (leader election) waits for the listing before it leads: the wait ends once it leads. */
    @Test
    void aWaitForTheListingBegunWhilePausedEndsAfterTheResume(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        Orchestrator orchestrator = orchestrator(cluster);
        String stream = "kopfexamples.v1.kopf.dev in '" + namespace.name() + "'";
        try (CapturedLogs lines = new CapturedLogs(ResourceWatcher.class.getName())) {
            orchestrator.pause("leadership");
            orchestrator.ensure(new WatcherKey(KOPFEXAMPLES, namespace.name()));   // made, not started
            assertThat(streamLines(lines)).as("Kopf's lines of a watcher started paused").containsExactly(
                    "Starting the watch-stream for " + stream + " (paused).",
                    "Pausing the watch-stream for " + stream + " (blockers: leadership).");
            // On a thread of its own: in the common pool it would block the client's async stages on 2 cores.
            CompletableFuture<Boolean> listed = new CompletableFuture<>();
            Thread.ofPlatform().daemon().start(() -> {
                try {
                    listed.complete(orchestrator.awaitListed(System.nanoTime() + WAIT.toNanos()));
                } catch (InterruptedException e) {
                    listed.complete(false);
                }
            });
            orchestrator.resume("leadership");
            assertThat(listed.get(WAIT.toSeconds() + 5, TimeUnit.SECONDS)).as("listed by the watcher of the resume").isTrue();
        } finally {
            orchestrator.stop();
        }
    }
}
