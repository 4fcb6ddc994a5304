package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.kopf4j.Events;
import io.kopf4j.HandlerContext;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Spec;
import io.kopf4j.Timer;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;

/**
 * Object log messages and explicit events become Kubernetes Events on the object, or on other
 * objects; repeated ones are counted into one Event, similar ones combined, as client-go does, with
 * the writes counted by the API server itself ({@code apiserver_request_total} of its /metrics).
 */
@ExtendWith(LocalClusterExtension.class)
class EventsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String LIMITED_USER = "operator-without-event-patches";

    public static class Handlers {
        @On.Create("kopfexamples")
        public void create(String name, Logger logger, HandlerContext context) {
            logger.info("Hello {}", name);
            logger.debug("Too detailed to post");
            context.info("Informed", "below the warnings");
            context.warn("Checked", "something to look at");
        }
    }

    /** An event handler, whose logger (as Kopf's) never posts, and a create handler that posts after it. */
    public static class Spying {
        @On.Event("kopfexamples")
        public void spy(String type, Logger logger) {
            logger.warn("Spied {}", type);
        }

        @On.Create("kopfexamples")
        public void create(Logger logger) {
            logger.info("Created after the spy");
        }
    }

    /** Posts to the object named in spec.notify and to the ConfigMap "target", in their several forms. */
    public static class Notifying {
        @On.Create("kopfexamples")
        public void create(Spec spec, String name, String namespace) {
            if (spec.get("notify") instanceof String other) {
                Map<String, Object> otherBody = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
                        "metadata", Map.of("name", other, "namespace", namespace));
                ConfigMap target = new ConfigMapBuilder().withNewMetadata().withName("target").withNamespace(namespace)
                        .endMetadata().build();
                Events.info(List.of(otherBody, target), "Notified", "by " + name);
            }
        }
    }

    /** Logs the same line a hundred times at once, and keeps the times around it. */
    public static class Repeating {
        static volatile Instant before;
        static volatile Instant after;

        @On.Create("kopfexamples")
        public void create(Logger logger) {
            before = Instant.now();
            for (int i = 0; i < 100; i++) {
                logger.info("Same line");
            }
            after = Instant.now();
        }
    }

    /** Posts twenty different messages with one reason at once. */
    public static class Numbering {
        @On.Create("kopfexamples")
        public void create(HandlerContext context) {
            for (int i = 1; i <= 20; i++) {
                context.info("Numbered", "Number " + i);
            }
        }
    }

    /** A timer ten times a second that logs a line each run, and counts its runs. */
    public static class Ticking {
        static final AtomicInteger TICKS = new AtomicInteger();

        @Timer(value = "kopfexamples", interval = 0.1)
        public void fast(Logger logger) {
            logger.info("Tick");
            TICKS.incrementAndGet();
        }
    }

    /** A timer that logs the same line three times a second, its counts written every second. */
    public static class Again {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.posting.repeatInterval = Duration.ofSeconds(1);
        }

        @Timer(value = "kopfexamples", interval = 0.3)
        public void again(Logger logger) {
            logger.info("Again");
        }
    }

    /** The API server's own count of the writes to Events (POST, PATCH) since it started, from its /metrics. */
    /**
     * The operator's own writes to Events (POST and PATCH), as the API server's audit log counts them
     * for its user: the API server's {@code apiserver_request_total} counts every client's, and once
     * counted kube-controller-manager's Events of other tests' objects too.
     */
    private static long eventWrites(LocalCluster cluster, String user) {
        return cluster.apiCallCounts(user).entrySet().stream()
                .filter(call -> call.getKey().resource().equals("events") && call.getKey().group().isEmpty())
                .filter(call -> call.getKey().verb().equals("create") || call.getKey().verb().equals("patch"))
                .mapToLong(Map.Entry::getValue).sum();
    }

    /** A user of the test's own, so that its operator's requests are told from any other client's. */
    private static String operatorUser(TemporaryNamespace namespace) {
        return "events-" + namespace.name();
    }

    private static List<Event> events(LocalCluster cluster, String namespace, String name, String message) {
        return events(cluster, namespace, name).stream().filter(event -> message.equals(event.getMessage())).toList();
    }

    private static List<Event> events(LocalCluster cluster, String namespace, String name) {
        return cluster.client().v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(event -> name.equals(event.getInvolvedObject().getName())).toList();
    }

    @Test
    void logMessagesAndExplicitEventsArePosted(LocalCluster cluster, TemporaryNamespace namespace) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-n", namespace.name(),
                Handlers.class.getName())) {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(events(cluster, namespace.name(), "ex"))
                    .extracting(Event::getType, Event::getReason, Event::getMessage)
                    .contains(org.assertj.core.groups.Tuple.tuple("Normal", "Logging", "Hello ex"),
                            org.assertj.core.groups.Tuple.tuple("Normal", "Informed", "below the warnings"),
                            org.assertj.core.groups.Tuple.tuple("Warning", "Checked", "something to look at"),
                            org.assertj.core.groups.Tuple.tuple("Normal", "Logging", "Handler 'create' succeeded.")));
            List<Event> posted = events(cluster, namespace.name(), "ex");
            assertThat(posted).extracting(Event::getMessage).doesNotContain("Too detailed to post");
            Event hello = posted.stream().filter(e -> "Hello ex".equals(e.getMessage())).findFirst().orElseThrow();
            assertThat(hello.getMetadata().getName()).startsWith("kopf-event-");
            assertThat(hello.getSource().getComponent()).isEqualTo("kopf");
            assertThat(hello.getReportingComponent()).isEqualTo("kopf");
            assertThat(hello.getInvolvedObject().getKind()).isEqualTo("KopfExample");
            assertThat(hello.getInvolvedObject().getUid()).isEqualTo(examples.get("ex").getMetadata().getUid());
            assertThat(runner.output()).contains("Hello ex");
        }
    }

    @Test
    void thePostingLevelFiltersLogMessagesAndExplicitInfosButNotWarnings(LocalCluster cluster,
                                                                         TemporaryNamespace namespace) {
        OperatorSettings settings = new OperatorSettings();
        settings.posting.level = org.slf4j.event.Level.WARN;
        assertThat(reasonsUpToTheWarning(cluster, namespace, Handlers.class, settings))
                .doesNotContain("Logging", "Informed");
    }

    @Test
    void loggersCanBeKeptOutOfTheEventsAsInKopfsNewestDefault(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorSettings settings = new OperatorSettings();
        settings.posting.loggers = false;
        assertThat(reasonsUpToTheWarning(cluster, namespace, Handlers.class, settings))
                .contains("Informed").doesNotContain("Logging");
    }

    @Test
    void eventHandlersLoggersPostNothing(LocalCluster cluster, TemporaryNamespace namespace) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        try (Operator operator = Operator.builder().handlers(Spying.class)
                .namespaces(namespace.name()).kubeconfig(cluster.kubeconfig()).build()) {
            operator.start();
            examples.create("spied", Map.of("a", 1));
            // The event handler runs first in the cycle, and events are posted in order:
            // had its lines been posted, they would be there before the create handler's.
            await().atMost(WAIT).untilAsserted(() -> assertThat(events(cluster, namespace.name(), "spied"))
                    .extracting(Event::getMessage).contains("Created after the spy"));
            assertThat(events(cluster, namespace.name(), "spied")).extracting(Event::getMessage)
                    .noneMatch(message -> message.startsWith("Spied") || message.contains("'spy'"));
        }
    }

    @Test
    void eventsArePostedToOtherObjects(LocalCluster cluster, TemporaryNamespace namespace) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        cluster.client().configMaps().inNamespace(namespace.name()).resource(new ConfigMapBuilder()
                .withNewMetadata().withName("target").endMetadata().build()).create();
        try (Operator operator = Operator.builder().handlers(Notifying.class)
                .namespaces(namespace.name()).kubeconfig(cluster.kubeconfig()).build()) {
            operator.start();
            examples.create("other", Map.of());
            examples.create("notifier", Map.of("notify", "other"));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(events(cluster, namespace.name(), "other"))
                        .extracting(e -> e.getInvolvedObject().getKind(), Event::getType, Event::getReason, Event::getMessage)
                        .contains(Tuple.tuple("KopfExample", "Normal", "Notified", "by notifier"));
                assertThat(events(cluster, namespace.name(), "target"))
                        .extracting(e -> e.getInvolvedObject().getKind(), Event::getReason, Event::getMessage)
                        .containsExactly(Tuple.tuple("ConfigMap", "Notified", "by notifier"));
            });
        }
    }

    @Test
    void aLineLoggedAHundredTimesIsOneEventWithItsCountAndTimesInAFewWrites(LocalCluster cluster,
                                                                            TemporaryNamespace namespace) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        OperatorSettings settings = new OperatorSettings();
        // 3 s, not 1: the hundred lines must all be logged before the repeats' one write is due (a repeat
        // interval after the first POST ends), also on a busy machine, or their count takes a second PATCH.
        settings.posting.repeatInterval = Duration.ofSeconds(3);
        String user = operatorUser(namespace);
        try (Operator operator = Operator.builder().handlers(Repeating.class).settings(settings)
                .namespaces(namespace.name()).kubeconfig(cluster.kubeconfigFor(user, "system:masters")).build()) {
            operator.start();
            examples.create("repeated", Map.of());
            await().atMost(WAIT).untilAsserted(() -> assertThat(events(cluster, namespace.name(), "repeated", "Same line"))
                    .singleElement().extracting(Event::getCount).isEqualTo(100));
        }
        Event same = events(cluster, namespace.name(), "repeated", "Same line").getFirst();
        Instant first = Instant.parse(same.getFirstTimestamp());
        Instant last = Instant.parse(same.getLastTimestamp());
        assertThat(first).isBetween(Repeating.before.truncatedTo(ChronoUnit.SECONDS), Repeating.after);
        assertThat(last).isBetween(first, Repeating.after);
        // "Same line": a POST and at most one PATCH; "Handler 'create' succeeded.", "Creation is processed: ...": a POST each.
        assertThat(eventWrites(cluster, user)).as("the operator's writes to Events (audit log)").isBetween(3L, 4L);
    }

    @Test
    void similarMessagesAreCombinedFromTheTenthDifferentOneAsInClientGo(LocalCluster cluster, TemporaryNamespace namespace) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        OperatorSettings settings = new OperatorSettings();
        settings.posting.repeatInterval = Duration.ofSeconds(1);
        try (Operator operator = Operator.builder().handlers(Numbering.class).settings(settings)
                .namespaces(namespace.name()).kubeconfig(cluster.kubeconfig()).build()) {
            operator.start();
            examples.create("numbered", Map.of());
            await().atMost(WAIT).untilAsserted(() -> assertThat(events(cluster, namespace.name(), "numbered"))
                    .filteredOn(event -> "Numbered".equals(event.getReason()))
                    .extracting(Event::getMessage, Event::getCount).containsExactlyInAnyOrder(
                            Tuple.tuple("Number 1", 1), Tuple.tuple("Number 2", 1), Tuple.tuple("Number 3", 1),
                            Tuple.tuple("Number 4", 1), Tuple.tuple("Number 5", 1), Tuple.tuple("Number 6", 1),
                            Tuple.tuple("Number 7", 1), Tuple.tuple("Number 8", 1), Tuple.tuple("Number 9", 1),
                            Tuple.tuple("(combined from similar events): Number 20", 11)));
        }
    }

    @Test
    void aTimerTenTimesASecondCostsTwoWritesPerLineAndItsEventCountsEveryRun(LocalCluster cluster,
                                                                             TemporaryNamespace namespace) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        Ticking.TICKS.set(0);
        String user = operatorUser(namespace);
        try (Operator operator = Operator.builder().handlers(Ticking.class)
                .namespaces(namespace.name()).kubeconfig(cluster.kubeconfigFor(user, "system:masters")).build()) {
            operator.start();
            examples.create("ticking", Map.of());
            await().atMost(WAIT).until(() -> Ticking.TICKS.get() >= 50);
        }
        // The operator has stopped: its poster wrote the counts waiting for the next minute.
        assertThat(events(cluster, namespace.name(), "ticking", "Tick")).singleElement()
                .extracting(Event::getCount).isEqualTo(Ticking.TICKS.get());
        assertThat(events(cluster, namespace.name(), "ticking", "Timer 'fast' succeeded.")).singleElement()
                .extracting(Event::getCount).isEqualTo(Ticking.TICKS.get());
        // Each line: its POST at the first run, then its count at the stop (the next one was a minute away).
        assertThat(eventWrites(cluster, user)).as("the operator's writes to Events (audit log)").isEqualTo(4);
    }

    @Test
    void withKopfsRbacThatAllowsNoPatchRepeatsArePostedAsNewEventsWithTheirCount(LocalCluster cluster,
                                                                                 TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        fixture.grant(LIMITED_USER, "get", "list", "watch", "patch");
        fixture.grantEvents(LIMITED_USER, "create");
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfigFor(LIMITED_USER), "run", "--no-preflight", "-n", namespace.name(),
                Again.class.getName())) {
            fixture.examples().create("again", Map.of());
            // Three Events: the first, and two more where PATCHes would have been (each would have warned).
            await().atMost(WAIT).untilAsserted(() -> assertThat(events(cluster, namespace.name(), "again", "Again"))
                    .hasSizeGreaterThanOrEqualTo(3).anySatisfy(event -> assertThat(event.getCount()).isGreaterThan(1)));
            assertThat(runner.output()).containsOnlyOnce("Kubernetes Events cannot be patched (events")
                    .doesNotContain("Failed to post an event");
        }
    }

    /** The reasons of the events posted on a new object up to the handler's warning. */
    private static List<String> reasonsUpToTheWarning(LocalCluster cluster, TemporaryNamespace namespace,
                                                      Class<?> handlers, OperatorSettings settings) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        try (Operator operator = Operator.builder().handlers(handlers).settings(settings)
                .namespaces(namespace.name()).kubeconfig(cluster.kubeconfig()).build()) {
            operator.start();
            examples.create("quiet", Map.of("a", 1));
            // Events are posted in order: had "Hello" or the info been posted, they would be there before the warning.
            await().atMost(WAIT).untilAsserted(() -> assertThat(events(cluster, namespace.name(), "quiet"))
                    .extracting(Event::getReason).contains("Checked"));
            return events(cluster, namespace.name(), "quiet").stream().map(Event::getReason).toList();
        }
    }
}
