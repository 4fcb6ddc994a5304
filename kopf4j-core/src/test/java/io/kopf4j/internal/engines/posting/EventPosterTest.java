package io.kopf4j.internal.engines.posting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.runtime.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Kopf's {@code kopf.event/info/warn/exception}: their level checks, and objects given in any
 * form; repeats counted into one Event, drops told. A missing event is proven by the next one
 * arriving first.
 */
class EventPosterTest {
    private static final Map<String, Object> BODY = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "metadata", Map.of("name", "ex", "namespace", "ns", "uid", "u1"));

    private final CapturedEvents captured = new CapturedEvents();

    @AfterEach
    void close() {
        captured.close();
    }

    @Test
    void infoIsNotPostedBelowThePostingLevelWhileWarnIs() throws InterruptedException {
        captured.settings.level = Level.WARN;
        captured.poster.info(BODY, "Informed", "not important enough");
        captured.poster.warn(BODY, "Warned", "important");
        assertThat(captured.next()).extracting(EventWrite::type, EventWrite::reason, EventWrite::message)
                .containsExactly("Warning", "Warned", "important");
    }

    @Test
    void onlyExceptionsArePostedAtTheErrorLevelButEventsAlways() throws InterruptedException {
        captured.settings.level = Level.ERROR;
        captured.poster.info(BODY, "Informed", "no");
        captured.poster.warn(BODY, "Warned", "no");
        captured.poster.exception(BODY, "", "Some exception:", new IllegalStateException("Exception text."));
        captured.poster.event(BODY, "SomeType", "SomeReason", "Some message");
        assertThat(captured.next()).extracting(EventWrite::type, EventWrite::reason, EventWrite::message)
                .containsExactly("Error", "IllegalStateException", "Some exception: Exception text.");
        assertThat(captured.next()).extracting(EventWrite::type, EventWrite::reason, EventWrite::message)
                .containsExactly("SomeType", "SomeReason", "Some message");
    }

    @Test
    void everyObjectGetsItsEventWhateverItsForm() throws InterruptedException {
        Map<String, Object> ownerReference = Map.of("apiVersion", "v1", "kind", "Pod", "name", "p", "uid", "u2");
        Object objects = List.of(BODY, List.of(ownerReference, new ConfigMapBuilder().withNewMetadata()
                .withName("cm").withNamespace("other").withUid("u3").endMetadata().build()));
        captured.poster.info(objects, "Told", "all of them");
        assertThat(List.of(captured.next(), captured.next(), captured.next())).extracting(EventWrite::reference)
                .containsExactly(
                Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample", "name", "ex", "uid", "u1", "namespace", "ns"),
                ownerReference,
                Map.of("apiVersion", "v1", "kind", "ConfigMap", "name", "cm", "uid", "u3", "namespace", "other"));
    }

    @Test
    void aReferenceWithoutApiVersionOrKindIsPostedNotAnErrorOfTheEventsGuard() throws InterruptedException {
        Map<String, Object> bare = Map.of("name", "bare", "namespace", "ns", "uid", "u9");
        captured.poster.event(bare, "Normal", "Bare", "no kind");
        assertThat(captured.next()).extracting(EventWrite::reference, EventWrite::reason).containsExactly(bare, "Bare");
    }

    @Test
    void eventsAboutEventsAreSkipped() throws InterruptedException {
        captured.poster.event(Map.of("apiVersion", "v1", "kind", "Event", "metadata", Map.of("name", "e1")), "Normal", "Loop", "no");
        captured.poster.event(BODY, "Normal", "After", "yes");
        assertThat(captured.next().reason()).isEqualTo("After");
    }

    @Test
    void unknownObjectsAreRefusedByType() {
        assertThatThrownBy(() -> captured.poster.info("ex", "Told", "a name is not an object"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("K8s object class is not supported: java.lang.String (ex)");
    }

    @Test
    void aHundredRepeatsAreOneEventWhoseLastWriteCountsThemAll() throws InterruptedException {
        try (CapturedEvents repeated = new CapturedEvents(limits -> limits.repeatInterval = Duration.ofMillis(100))) {
            for (int i = 0; i < 100; i++) {
                repeated.poster.info(BODY, "Ticked", "Timer 'tick' succeeded.");
            }
            List<EventWrite> writes = new ArrayList<>(List.of(repeated.next()));
            while (writes.getLast().count() < 100) {
                writes.add(repeated.next());
            }
            assertThat(writes.getFirst().name()).as("a new Event first").isNull();
            // The poster may have taken all 100 before its first write: then that one Event is all there is.
            assertThat(writes.subList(1, writes.size())).extracting(EventWrite::name).allMatch("event-1"::equals);
            assertThat(writes.getLast().lastTimestamp()).isAfterOrEqualTo(writes.getFirst().firstTimestamp());
        }
    }

    @Test
    void aFullQueueDropsNewEventsWithAWarningThatCountsThemNotOnePerDrop() throws InterruptedException {
        OperatorSettings.Posting settings = new OperatorSettings.Posting();
        settings.queueSize = 1;
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(EventPoster.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        log.addAppender(lines);
        try (EventPoster poster = new EventPoster(settings, new Metrics(registry), write -> {
            writing.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "event-1";
        })) {
            poster.info(BODY, "Held", "waits in the writer");
            writing.await();
            for (int i = 0; i < 100; i++) {
                poster.info(BODY, "Dropped", "number " + i);
            }
            assertThat(registry.get("kopf4j.events.dropped").counter().count()).isEqualTo(100);
            release.countDown();
            // The poster tells of the drops once its write is done: one line for all of them.
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                            "Dropped 100 Kubernetes Events: 1 Events were waiting to be written already, as many as"
                                    + " settings.posting.queueSize allows. Further drops are counted and told once a minute."));
        } finally {
            log.detachAppender(lines);
        }
    }

    @Test
    void aWriteCutShortByTheStopIsAbandonedWithoutAWarning() throws InterruptedException {
        CountDownLatch writing = new CountDownLatch(1);
        ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(EventPoster.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        log.addAppender(lines);
        try {
            EventPoster poster = new EventPoster(new OperatorSettings.Posting(), new Metrics(null), write -> {
                writing.countDown();
                try {
                    new CountDownLatch(1).await();   // an API server that does not answer
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();   // as ApiRequest: the flag kept, a failure thrown
                    throw new IllegalStateException("interrupted while sending POST");
                }
                return "never";
            });
            poster.info(BODY, "Held", "until the stop");
            writing.await();
            poster.close();   // returns once the poster has stopped: any warning would have been logged
            assertThat(lines.list).isEmpty();
        } finally {
            log.detachAppender(lines);
        }
    }
}
