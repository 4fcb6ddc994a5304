package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Indexer;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The opt-in server-side selection ({@code settings.watching.labelSelectors}) on a real API server:
 * objects outside it never reach the operator, and its handlers (which have no label filters of
 * their own here) serve only the objects inside. Its way in and out differs from Kopf's filters
 * (LabelFilteredObjectsTest) only where docs/big-clusters.md says: an object relabelled in arrives
 * as {@code ADDED}; one that leaves is released (its finalizer goes) and forgotten at once.
 */
@ExtendWith(LocalClusterExtension.class)
class ServerSideSelectorTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Map<String, String> WEB = Map.of("app", "web");
    private static final Map<String, String> DB = Map.of("app", "db");
    /** Every object the indexer saw, in the watch stream's order (indexers run as events arrive). */
    private static final List<String> SEEN = new CopyOnWriteArrayList<>();
    /** What the event handler saw, in order: "namespace/name uid TYPE". */
    private static final List<String> EVENTS = new CopyOnWriteArrayList<>();
    private static final List<String> DELETIONS = new CopyOnWriteArrayList<>();

    /** Handlers of every kopfexample, without filters: the selection alone narrows them. */
    public static class Handlers {
        /** An object with this annotation holds the watch stream in the indexer until {@link #release}. */
        static final String HOLD = "kopf.dev/hold-the-stream";
        static volatile CountDownLatch held = new CountDownLatch(1);
        static volatile CountDownLatch release = new CountDownLatch(0);

        @Indexer("kopfexamples")
        public String names(String name, Map<String, String> annotations) throws InterruptedException {
            SEEN.add(name);
            if (annotations.containsKey(HOLD)) {
                held.countDown();
                release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            return name;
        }

        @On.Event("kopfexamples")
        public void event(String type, String namespace, String name, String uid) {
            EVENTS.add(namespace + "/" + name + " " + uid + " " + type);
        }

        @On.Create("kopfexamples")
        public String create() {
            return "created";
        }

        @On.Resume("kopfexamples")
        public String resume() {
            return "resumed";
        }

        @On.Delete("kopfexamples")
        public void delete(String namespace, String name) {
            DELETIONS.add(namespace + "/" + name);
        }
    }

    @BeforeEach
    void forget() {
        SEEN.clear();
        EVENTS.clear();
        DELETIONS.clear();
    }

    private static Operator.Builder selecting(OperatorFixture fixture) {
        OperatorSettings settings = new OperatorSettings();
        settings.watching.labelSelectors.put("kopfexamples", "app=web");
        return fixture.operator().settings(settings).handlers(new Handlers()).metricsAddress("127.0.0.1:0");
    }

    @Test
    void objectsOutsideTheSelectionNeverReachTheOperator(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        examples.create("in-early", Map.of(), Map.of(), WEB);
        examples.create("out-early", Map.of(), Map.of(), DB);
        examples.create("unlabelled", Map.of());
        try (CapturedLogs logs = new CapturedLogs("io.kopf4j"); Operator operator = fixture.start(selecting(fixture))) {
            examples.create("out-late", Map.of(), Map.of(), DB);
            examples.create("in-late", Map.of(), Map.of(), WEB);
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(examples.status("in-early")).containsEntry("create", "created");
                assertThat(examples.status("in-late")).containsEntry("create", "created");
            });
            // The indexer sees the stream in order: out-late's event, had it come, would be before in-late's.
            assertThat(SEEN).contains("in-early", "in-late").doesNotContain("out-early", "unlabelled", "out-late");
            for (String outside : List.of("out-early", "unlabelled", "out-late")) {
                assertThat(examples.finalizers(outside)).as(outside).isEmpty();
                assertThat(examples.annotations(outside)).as(outside).isEmpty();
            }
            assertThat(ObjectEvents.objectsRemembered(metrics(operator))).as("only the selected objects are held").isEqualTo(2);
            assertThat(logs.contains("Watching only the kopfexamples selected by labels 'app=web' in '"
                    + namespace.name() + "' (settings.watching).")).isTrue();
        }
    }

    @Test
    void anObjectRelabelledInIsAddedAndOneRelabelledOutIsReleasedAndForgotten(LocalCluster cluster,
                                                                            TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        String object = namespace.name() + "/ex";
        examples.create("ex", Map.of("a", 1), Map.of(), DB);
        try (CapturedLogs logs = new CapturedLogs("kopf.objects"); Operator operator = fixture.start(selecting(fixture))) {
            examples.patch("ex", ObjectEvents.appLabel("web"));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(examples.status("ex")).as("never handled: a creation").containsEntry("create", "created");
                assertThat(examples.finalizers("ex")).contains(KopfExamples.FINALIZER);
            });
            assertThat(ObjectEvents.typesOf(EVENTS, object, null)).as("entering the selection is an ADDED, unlike Kopf's MODIFIED").startsWith("ADDED");

            examples.patch("ex", ObjectEvents.appLabel("db"));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.finalizers("ex")).doesNotContain(KopfExamples.FINALIZER));
            await().atMost(WAIT).untilAsserted(() -> assertThat(ObjectEvents.objectsRemembered(metrics(operator))).as("forgotten on leaving").isZero());
            assertThat(DELETIONS).as("leaving the selection is no deletion").doesNotContain(object);
            assertThat(ObjectEvents.typesOf(EVENTS, object, null)).as("the event handler serves nothing outside").doesNotContain("DELETED");
            assertThat(logs.contains("The object left the watched selection (labels 'app=web'): its handlers serve it no more."))
                    .isTrue();

            examples.patch("ex", ObjectEvents.appLabel("web"));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.finalizers("ex")).contains(KopfExamples.FINALIZER));
            examples.delete("ex");
            await().atMost(WAIT).until(() -> !examples.exists("ex"));
            assertThat(DELETIONS).as("back inside, its deletion is handled").containsExactly(object);
            await().atMost(WAIT).untilAsserted(() -> assertThat(ObjectEvents.objectsRemembered(metrics(operator))).isZero());
        }
    }

    @Test
    void aDeletionIsToldFromARecreationUnderTheSameName(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        String object = namespace.name() + "/ex";
        try (Operator operator = fixture.start(selecting(fixture))) {
            String old = examples.create("ex", Map.of("a", 1), Map.of(), WEB).getMetadata().getUid();
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex")).containsEntry("create", "created"));

            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.annotations("ex")).containsKey("kopf.zalando.org/last-handled-configuration"));

            // Another object's event holds the stream; meanwhile ex is deleted (the test releases the finalizer
            // itself) and created again, so the operator's read by name at the deletion's event finds another
            // object: a deletion, not a departure.
            Handlers.held = new CountDownLatch(1);
            Handlers.release = new CountDownLatch(1);
            String recreated;
            try {
                examples.create("holder", Map.of(), Map.of(Handlers.HOLD, "yes"), WEB);
                assertThat(Handlers.held.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the stream is held").isTrue();
                examples.delete("ex");
                examples.patch("ex", Map.of("metadata", Map.of("finalizers", List.of())));
                await().atMost(WAIT).until(() -> !examples.exists("ex"));
                recreated = examples.create("ex", Map.of("a", 2), Map.of(), WEB).getMetadata().getUid();
            } finally {
                Handlers.release.countDown();
            }
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(ObjectEvents.typesOf(EVENTS, object, old)).as("the old object").endsWith("DELETED");
                assertThat(ObjectEvents.typesOf(EVENTS, object, recreated)).as("the new object").startsWith("ADDED");
                assertThat(examples.status("ex")).as("the new object's creation is handled").containsEntry("create", "created");
            });
        }
    }

    @Test
    void aRestartResumesTheSelectedObjectsCreatesThoseThatEnteredAndReleasesThoseThatLeft(LocalCluster cluster,
                                                                                          TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        String leaves = namespace.name() + "/leaves";
        try (Operator operator = fixture.start(selecting(fixture))) {
            examples.create("stays", Map.of("a", 1), Map.of(), WEB);
            examples.create("leaves", Map.of("a", 1), Map.of(), WEB);
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(examples.status("stays")).containsEntry("create", "created");
                assertThat(examples.status("leaves")).containsEntry("create", "created");
                assertThat(examples.finalizers("leaves")).contains(KopfExamples.FINALIZER);
            });
        }
        SEEN.clear();
        examples.create("enters", Map.of("a", 1), Map.of(), DB);
        examples.patch("enters", ObjectEvents.appLabel("web"));
        examples.patch("leaves", ObjectEvents.appLabel("db"));
        examples.create("outside", Map.of("a", 1), Map.of(), DB);
        try (CapturedLogs logs = new CapturedLogs("io.kopf4j"); Operator operator = fixture.start(selecting(fixture))) {
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(examples.status("stays")).containsEntry("resume", "resumed");
                assertThat(examples.status("enters")).containsEntry("create", "created");
                assertThat(examples.finalizers("leaves")).as("left while the operator was down: released by the sweep")
                        .doesNotContain(KopfExamples.FINALIZER);
            });
            assertThat(DELETIONS).as("leaving is no deletion").doesNotContain(leaves);
            assertThat(logs.contains("Swept 4 kopfexamples in '" + namespace.name() + "' for objects outside the selection"
                    + " (labels 'app=web') that hold the operator's finalizer: 1 found, to be released.")).isTrue();
            await().atMost(WAIT).untilAsserted(() -> assertThat(ObjectEvents.objectsRemembered(metrics(operator)))
                    .as("stays and enters; leaves forgotten once released").isEqualTo(2));
            assertThat(SEEN).doesNotContain("outside", "leaves");
            assertThat(examples.annotations("outside")).isEmpty();
        }
    }

    private static URI metrics(Operator operator) {
        return URI.create("http://127.0.0.1:" + operator.metricsAddress().getPort() + "/metrics");
    }
}
