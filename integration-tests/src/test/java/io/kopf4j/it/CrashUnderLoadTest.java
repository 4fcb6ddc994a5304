package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.kopf4j.On;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crash safety under load: the operator is killed (SIGKILL) while it creates many objects at once.
 * Since a cycle writes the handler's result ({@code /status}) before the diff-base (the body), no
 * object may be marked as handled without its result; after a restart exactly the objects that were
 * not yet marked are handled (again, for those whose handler had run: at least once, never lost).
 */
@ExtendWith(LocalClusterExtension.class)
class CrashUnderLoadTest {
    private static final int OBJECTS = 200;
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String DIFF_BASE = "kopf.zalando.org/last-handled-configuration";
    private static final String RESULT = "create";
    private static final Pattern INVOCATION = Pattern.compile("Create handler invoked for (\\S+)\\.$", Pattern.MULTILINE);
    private static final Logger LOG = LoggerFactory.getLogger(CrashUnderLoadTest.class);

    /** One create handler that logs each invocation before it returns its result. */
    public static class Handlers {
        // Not the object logger: its INFO lines would also be posted as Events, more load on the API.
        private static final Logger INVOCATIONS = LoggerFactory.getLogger(Handlers.class);

        /** Logs the invocation (the line reaches the log file before the result can be written) and returns the result. */
        @On.Create("kopfexamples")
        public String create(String name) {
            INVOCATIONS.info("Create handler invoked for {}.", name);
            return "created";
        }
    }

    /** The objects' state as stored in the cluster: which ones have the handler's result, which ones the diff-base. */
    private record Snapshot(Set<String> withResult, Set<String> handled) {
        static Snapshot of(List<GenericKubernetesResource> objects) {
            Set<String> withResult = new TreeSet<>();
            Set<String> handled = new TreeSet<>();
            for (GenericKubernetesResource object : objects) {
                String name = object.getMetadata().getName();
                if (object.getAdditionalProperties().get("status") instanceof Map<?, ?> status && status.containsKey(RESULT)) {
                    withResult.add(name);
                }
                Map<String, String> annotations = object.getMetadata().getAnnotations();
                if (annotations != null && annotations.containsKey(DIFF_BASE)) {
                    handled.add(name);
                }
            }
            return new Snapshot(withResult, handled);
        }

        Set<String> handledWithoutResult() {
            Set<String> lost = new TreeSet<>(handled);
            lost.removeAll(withResult);
            return lost;
        }
    }

    @TempDir
    Path dir;

    @Test
    void noObjectIsMarkedHandledWithoutItsResultAndTheUnmarkedAreHandledAfterARestart(
            LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        long started = System.nanoTime();
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        Set<String> names = new TreeSet<>();
        for (int i = 0; i < OBJECTS; i++) {
            names.add(examples.create("ex-%03d".formatted(i), Map.of("i", i)).getMetadata().getName());
        }

        long created = System.nanoTime();
        Path killedLog = dir.resolve("killed.log");
        Process operator = fixture.runInOwnJvm(killedLog, Map.of(), Handlers.class);
        try {
            // The operator's log, not the API, tells how far it is: listing the objects takes longer
            // than the operator needs to handle dozens of them.
            await().atMost(WAIT).pollInterval(Duration.ofMillis(10))
                    .until(() -> invocations(killedLog).size() >= OBJECTS / 3);
        } finally {
            operator.destroyForcibly();   // SIGKILL: no shutdown hooks, in-flight cycles cut between their writes
            operator.waitFor(10, TimeUnit.SECONDS);
        }
        long killed = System.nanoTime();
        Snapshot atKill = Snapshot.of(examples.list());
        assertThat(atKill.handled()).as("the kill came before the operator was done").hasSizeLessThan(OBJECTS);
        assertThat(atKill.handledWithoutResult()).as("marked as handled (diff-base) with the result lost").isEmpty();
        List<String> invokedBeforeKill = invocations(killedLog);
        assertThat(invokedBeforeKill).as("every result stored comes from a logged invocation")
                .containsAll(atKill.withResult());

        Path restartedLog = dir.resolve("restarted.log");
        long handledAgain;
        long nudged;
        Process restarted = fixture.runInOwnJvm(restartedLog, Map.of(), Handlers.class);
        try {
            await().atMost(WAIT).until(() -> Snapshot.of(examples.list()).handled().size() == OBJECTS);
            handledAgain = System.nanoTime();
            assertThat(Snapshot.of(examples.list()).withResult()).containsExactlyElementsOf(names);
            // A change to every object, awaited in every diff-base: the restarted operator has then
            // processed each object's events from its startup listing on, so its invocations are complete.
            names.forEach(name -> examples.patch(name, Map.of("metadata", Map.of("labels", Map.of("restarted", "yes")))));
            await().atMost(WAIT).until(() -> examples.list().stream().allMatch(object -> object.getMetadata().getAnnotations()
                    .get(DIFF_BASE).contains("\"restarted\":\"yes\"")));
            nudged = System.nanoTime();
        } finally {
            restarted.destroyForcibly();
            restarted.waitFor(10, TimeUnit.SECONDS);
        }

        Set<String> unhandledAtKill = new TreeSet<>(names);
        unhandledAtKill.removeAll(atKill.handled());
        List<String> invokedAfterRestart = invocations(restartedLog);
        assertThat(invokedAfterRestart).as("exactly the objects not marked as handled at the kill, once each")
                .containsExactlyInAnyOrderElementsOf(unhandledAtKill);

        Set<String> inFlight = new TreeSet<>(invokedBeforeKill);
        inFlight.removeAll(atKill.handled());
        int reruns = invokedBeforeKill.size() + invokedAfterRestart.size() - OBJECTS;
        assertThat(reruns).as("re-runs: the objects whose handler had run but which were not marked").isEqualTo(inFlight.size());
        LOG.info("Crash under load: {} objects, killed with {} results stored and {} marked handled; {} handler(s) re-ran "
                        + "after the restart ({} with the result already stored). Seconds: {} creating, {} from the start "
                        + "to the kill, {} from the kill until all are handled, {} for the change to all.",
                OBJECTS, atKill.withResult().size(), atKill.handled().size(), reruns,
                atKill.withResult().size() - atKill.handled().size(),
                seconds(started, created), seconds(created, killed), seconds(killed, handledAgain), seconds(handledAgain, nudged));
    }

    private static double seconds(long fromNanos, long toNanos) {
        return TimeUnit.NANOSECONDS.toMillis(toNanos - fromNanos) / 1000.0;
    }

    /** The names of the objects the handler was invoked for, in the order of the log, as often as invoked. */
    private static List<String> invocations(Path log) throws IOException {
        Matcher matcher = INVOCATION.matcher(Files.readString(log));
        List<String> names = new ArrayList<>();
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }
}
