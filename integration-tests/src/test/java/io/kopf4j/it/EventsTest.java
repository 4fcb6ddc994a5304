package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.kopf4j.HandlerContext;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;

/** Object log messages and explicit events become Kubernetes Events on the object. */
@ExtendWith(LocalClusterExtension.class)
class EventsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    public static class Handlers {
        @On.Create("kopfexamples")
        public void create(String name, Logger logger, HandlerContext context) {
            logger.info("Hello {}", name);
            logger.debug("Too detailed to post");
            context.warn("Checked", "something to look at");
        }
    }

    private static List<Event> events(LocalCluster cluster, String namespace, String name) {
        return cluster.client().v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(event -> name.equals(event.getInvolvedObject().getName())).toList();
    }

    @Test
    void logMessagesAndExplicitEventsArePosted(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(events(cluster, namespace.name(), "ex"))
                    .extracting(Event::getType, Event::getReason, Event::getMessage)
                    .contains(org.assertj.core.groups.Tuple.tuple("Normal", "Logging", "Hello ex"),
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
    void thePostingLevelFiltersLogMessagesButNotExplicitEvents(LocalCluster cluster, TemporaryNamespace namespace)
            throws InterruptedException {
        OperatorSettings settings = new OperatorSettings();
        settings.posting.level = org.slf4j.event.Level.WARN;
        assertOnlyExplicitEvents(cluster, namespace, settings);
    }

    @Test
    void loggersCanBeKeptOutOfTheEventsAsInKopfsNewestDefault(LocalCluster cluster, TemporaryNamespace namespace)
            throws InterruptedException {
        OperatorSettings settings = new OperatorSettings();
        settings.posting.loggers = false;
        assertOnlyExplicitEvents(cluster, namespace, settings);
    }

    private static void assertOnlyExplicitEvents(LocalCluster cluster, TemporaryNamespace namespace, OperatorSettings settings)
            throws InterruptedException {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (Operator operator = fixture.start(fixture.operator().handlers(Handlers.class).settings(settings))) {
            examples.create("quiet", Map.of("a", 1));
            // Events are posted in order: had "Hello" been posted, it would be there before the warning.
            await().atMost(WAIT).untilAsserted(() -> assertThat(events(cluster, namespace.name(), "quiet"))
                    .extracting(Event::getReason).contains("Checked"));
            assertThat(events(cluster, namespace.name(), "quiet")).extracting(Event::getReason).doesNotContain("Logging");
        }
    }
}
