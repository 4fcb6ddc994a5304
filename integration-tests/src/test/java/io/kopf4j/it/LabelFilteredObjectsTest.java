package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Indexer;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Handlers that all require the same labels see Kopf's events and changes: kopf4j, as Kopf, watches
 * every object and checks the label filters in the operator. (Watched with those labels as a
 * server-side selector, objects entering it arrived as ADDED, deletions were lost to a recreation
 * under the same name, resuming skipped objects outside it at the start, and objects deleted after
 * leaving it stayed in memory.)
 */
@ExtendWith(LocalClusterExtension.class)
class LabelFilteredObjectsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Map<String, String> WEB = Map.of("app", "web");
    /** What the event handlers saw, in order: "namespace/name uid TYPE app-label". */
    private static final List<String> EVENTS = new CopyOnWriteArrayList<>();

    /** The event handler for app=web: what it sees goes to {@link #EVENTS}. */
    public static class Events {
        @On.Event(value = "kopfexamples", labels = "app=web")
        public void event(String type, String namespace, String name, String uid, Map<String, String> labels) {
            EVENTS.add(namespace + "/" + name + " " + uid + " " + type + " " + labels.get("app"));
        }
    }

    /** A creation handler and an index for app=web; no finalizer. */
    public static class Watched {
        /** An object with this annotation holds the watch stream in the index until {@link #release}. */
        static final String HOLD = "kopf.dev/hold-the-stream";
        static volatile CountDownLatch held = new CountDownLatch(1);
        static volatile CountDownLatch release = new CountDownLatch(0);

        @On.Create(value = "kopfexamples", labels = "app=web")
        public String create() {
            return "created";
        }

        /** Indexes run on the watcher's thread as events arrive: holding one holds the events after it. */
        @Indexer(value = "kopfexamples", labels = "app=web")
        public String names(String name, Map<String, String> annotations) throws InterruptedException {
            if (annotations.containsKey(HOLD)) {
                held.countDown();
                release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            return name;
        }
    }

    /** Creation and deletion handlers for app=web: with kopf4j's finalizer. */
    public static class Finalized {
        static final List<String> DELETIONS = new CopyOnWriteArrayList<>();

        @On.Create(value = "kopfexamples", labels = "app=web")
        public String create() {
            return "created";
        }

        @On.Delete(value = "kopfexamples", labels = "app=web")
        public void delete(String namespace, String name) {
            DELETIONS.add(namespace + "/" + name);
        }
    }

    /** Resuming and creation for app=web. */
    public static class Resuming {
        @On.Create(value = "kopfexamples", labels = "app=web")
        public String create() {
            return "created";
        }

        @On.Resume(value = "kopfexamples", labels = "app=web")
        public String resume() {
            return "resumed";
        }
    }



    @Test
    void objectsRelabelledIntoTheFiltersAreModifiedNotAdded(LocalCluster cluster, TemporaryNamespace namespace)
            throws InterruptedException {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        examples.create("early", Map.of("a", 1));
        try (Operator operator = fixture.start(fixture.operator().handlers(new Events(), new Watched()))) {
            examples.create("late", Map.of("a", 1));
            for (String name : List.of("early", "late")) {
                examples.patch(name, ObjectEvents.appLabel("web"));
                // The event handler runs before the creation handler, in the same cycle.
                await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status(name)).containsEntry("create", "created"));
                assertThat(ObjectEvents.typesOf(EVENTS, namespace.name() + "/" + name, null)).as(name).isNotEmpty()
                        .first().as("the first event the handler sees of %s", name).isEqualTo("MODIFIED");
                assertThat(ObjectEvents.typesOf(EVENTS, namespace.name() + "/" + name, null)).as(name).doesNotContain("ADDED");
            }
        }
    }

    @Test
    void objectsRelabelledOutOfTheFiltersAreReleasedAndForgottenOnceDeleted(LocalCluster cluster,
                                                                           TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        String object = namespace.name() + "/ex";
        try (Operator operator = fixture.start(fixture.operator().handlers(new Events(), new Finalized()).metricsAddress("127.0.0.1:0"))) {
            URI metrics = URI.create("http://127.0.0.1:" + operator.metricsAddress().getPort() + "/metrics");
            examples.create("ex", Map.of("a", 1), Map.of(), WEB);
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(examples.finalizers("ex")).contains(KopfExamples.FINALIZER);
                assertThat(examples.status("ex")).containsEntry("create", "created");
            });

            examples.patch("ex", ObjectEvents.appLabel("db"));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.finalizers("ex")).doesNotContain(KopfExamples.FINALIZER));
            examples.patch("ex", ObjectEvents.appLabel("web"));
            // The finalizer comes back in the cycle of the event that brought the object back.
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.finalizers("ex")).contains(KopfExamples.FINALIZER));
            assertThat(ObjectEvents.typesOf(EVENTS, object, null)).as("created once, then only modified").startsWith("ADDED")
                    .containsOnlyOnce("ADDED").doesNotContain("DELETED");
            assertThat(EVENTS).filteredOn(line -> line.startsWith(object + " ")).as("outside the filters: unseen")
                    .allMatch(line -> line.endsWith(" web"));
            assertThat(Finalized.DELETIONS).as("leaving the filters is no deletion").doesNotContain(object);

            examples.patch("ex", ObjectEvents.appLabel(null));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.finalizers("ex")).doesNotContain(KopfExamples.FINALIZER));
            examples.delete("ex");
            await().atMost(WAIT).untilAsserted(() -> assertThat(ObjectEvents.objectsRemembered(metrics)).as("forgotten once deleted").isZero());
            assertThat(Finalized.DELETIONS).doesNotContain(object);
        }
    }

    @Test
    void objectsThatNoHandlersLabelsMatchAreNotKeptYetServedOnceTheyMatch(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        examples.create("db", Map.of("a", 1), Map.of(), Map.of("app", "db"));
        examples.create("plain", Map.of("a", 1));
        try (Operator operator = fixture.start(fixture.operator().handlers(new Finalized()).metricsAddress("127.0.0.1:0"))) {
            URI metrics = URI.create("http://127.0.0.1:" + operator.metricsAddress().getPort() + "/metrics");
            examples.create("ex", Map.of("a", 1), Map.of(), WEB);
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex")).containsEntry("create", "created"));
            assertThat(ObjectEvents.objectsRemembered(metrics)).as("the listed objects that no handler's labels match are"
                    + " not kept").isEqualTo(1);

            examples.patch("db", ObjectEvents.appLabel("web"));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(examples.status("db")).as("never handled: a creation").containsEntry("create", "created");
                assertThat(examples.finalizers("db")).contains(KopfExamples.FINALIZER);
            });
            assertThat(ObjectEvents.objectsRemembered(metrics)).isEqualTo(2);
            assertThat(examples.annotations("plain")).as("never touched").isEmpty();
        }
    }

    @Test
    void anObjectDeletedAndRecreatedUnderItsNameIsDeletedThenAdded(LocalCluster cluster, TemporaryNamespace namespace)
            throws InterruptedException {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        String object = namespace.name() + "/ex";
        try (Operator operator = fixture.start(fixture.operator().handlers(new Events(), new Watched()))) {
            String old = examples.create("ex", Map.of("a", 1), Map.of(), WEB).getMetadata().getUid();
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex")).containsEntry("create", "created"));

            // The deletion and the recreation both happen before the operator reads the deletion's event.
            Watched.held = new CountDownLatch(1);
            Watched.release = new CountDownLatch(1);
            String recreated;
            try {
                examples.patch("ex", Map.of("metadata", Map.of("annotations", Map.of(Watched.HOLD, "yes"))));
                assertThat(Watched.held.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the stream is held").isTrue();
                examples.delete("ex");
                await().atMost(WAIT).until(() -> !examples.exists("ex"));
                recreated = examples.create("ex", Map.of("a", 2), Map.of(), WEB).getMetadata().getUid();
            } finally {
                Watched.release.countDown();
            }

            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(ObjectEvents.typesOf(EVENTS, object, old)).as("the old object").endsWith("DELETED");
                assertThat(ObjectEvents.typesOf(EVENTS, object, recreated)).as("the new object").startsWith("ADDED");
                assertThat(examples.get("ex").getMetadata().getUid()).isEqualTo(recreated);
                assertThat(examples.status("ex")).as("the new object's creation is handled").containsEntry("create", "created");
            });
        }
    }

    @Test
    void objectsOutsideTheFiltersAtTheStartAreResumedWhenTheyEnter(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Resuming.class)) {
            examples.create("ex", Map.of("a", 1), Map.of(), WEB);
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex")).containsEntry("create", "created"));
        }
        examples.patch("ex", ObjectEvents.appLabel("db"));
        try (KopfRunner runner = fixture.run(Resuming.class)) {
            examples.patch("ex", ObjectEvents.appLabel("web"));
            // Kopf listed it at the start: its first handling since is a resume.
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex")).containsEntry("resume", "resumed"));
            assertThat(runner.output()).contains(fixture.about("ex") + "Resuming is processed: 1 succeeded; 0 failed.");
        }
    }
}
