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
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;

/** Object log messages and explicit events become Kubernetes Events on the object, or on other objects. */
@ExtendWith(LocalClusterExtension.class)
class EventsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

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
