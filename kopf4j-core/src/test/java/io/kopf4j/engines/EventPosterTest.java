package io.kopf4j.engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.kopf4j.Events;
import io.kopf4j.OperatorSettings;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/**
 * Kopf's {@code kopf.event/info/warn/exception}: their level checks, and objects given in any
 * form. Events are posted in order, so a missing event is proven by the next one arriving first.
 */
class EventPosterTest {
    private static final Map<String, Object> BODY = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "metadata", Map.of("name", "ex", "namespace", "ns", "uid", "u1"));

    private final OperatorSettings.Posting settings = new OperatorSettings.Posting();
    private final BlockingQueue<K8sEvent> posted = new LinkedBlockingQueue<>();
    private final EventPoster poster = new EventPoster(settings, posted::add);

    @AfterEach
    void close() {
        poster.close();
    }

    private K8sEvent next() throws InterruptedException {
        K8sEvent event = posted.poll(10, TimeUnit.SECONDS);
        assertThat(event).as("an event posted within 10 seconds").isNotNull();
        return event;
    }

    @Test
    void infoIsNotPostedBelowThePostingLevelWhileWarnIs() throws InterruptedException {
        settings.level = Level.WARN;
        poster.info(BODY, "Informed", "not important enough");
        poster.warn(BODY, "Warned", "important");
        assertThat(next()).extracting(K8sEvent::type, K8sEvent::reason, K8sEvent::message)
                .containsExactly("Warning", "Warned", "important");
    }

    @Test
    void onlyExceptionsArePostedAtTheErrorLevelButEventsAlways() throws InterruptedException {
        settings.level = Level.ERROR;
        poster.info(BODY, "Informed", "no");
        poster.warn(BODY, "Warned", "no");
        poster.exception(BODY, "", "Some exception:", new IllegalStateException("Exception text."));
        poster.event(BODY, "SomeType", "SomeReason", "Some message");
        assertThat(next()).extracting(K8sEvent::type, K8sEvent::reason, K8sEvent::message)
                .containsExactly("Error", "IllegalStateException", "Some exception: Exception text.");
        assertThat(next()).extracting(K8sEvent::type, K8sEvent::reason, K8sEvent::message)
                .containsExactly("SomeType", "SomeReason", "Some message");
    }

    @Test
    void everyObjectGetsItsEventWhateverItsForm() throws InterruptedException {
        Map<String, Object> ownerReference = Map.of("apiVersion", "v1", "kind", "Pod", "name", "p", "uid", "u2");
        Object objects = List.of(BODY, List.of(ownerReference, new ConfigMapBuilder().withNewMetadata()
                .withName("cm").withNamespace("other").withUid("u3").endMetadata().build()));
        poster.info(objects, "Told", "all of them");
        assertThat(List.of(next().reference(), next().reference(), next().reference())).containsExactly(
                Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample", "name", "ex", "uid", "u1", "namespace", "ns"),
                ownerReference,
                Map.of("apiVersion", "v1", "kind", "ConfigMap", "name", "cm", "uid", "u3", "namespace", "other"));
    }

    @Test
    void eventsAboutEventsAreSkipped() throws InterruptedException {
        poster.event(Map.of("apiVersion", "v1", "kind", "Event", "metadata", Map.of("name", "e1")), "Normal", "Loop", "no");
        poster.event(BODY, "Normal", "After", "yes");
        assertThat(next().reason()).isEqualTo("After");
    }

    @Test
    void unknownObjectsAreRefusedByType() {
        assertThatThrownBy(() -> poster.info("ex", "Told", "a name is not an object"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got a java.lang.String: ex");
    }

    @Test
    void theStaticApiPostsThroughThePosterTheHandlerRunsWithin() throws Exception {
        poster.within(() -> {
            Events.warn(BODY, "Warned", "from the handler's thread");
            return null;
        });
        assertThat(next().message()).isEqualTo("from the handler's thread");
        assertThatThrownBy(() -> Events.warn(BODY, "Warned", "outside"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("HandlerContext");
    }
}
