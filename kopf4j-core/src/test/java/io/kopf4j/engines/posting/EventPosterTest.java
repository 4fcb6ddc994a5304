package io.kopf4j.engines.posting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/**
 * Kopf's {@code kopf.event/info/warn/exception}: their level checks, and objects given in any
 * form. A missing event is proven by the next one arriving first.
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
        assertThat(captured.next()).extracting(K8sEvent::type, K8sEvent::reason, K8sEvent::message)
                .containsExactly("Warning", "Warned", "important");
    }

    @Test
    void onlyExceptionsArePostedAtTheErrorLevelButEventsAlways() throws InterruptedException {
        captured.settings.level = Level.ERROR;
        captured.poster.info(BODY, "Informed", "no");
        captured.poster.warn(BODY, "Warned", "no");
        captured.poster.exception(BODY, "", "Some exception:", new IllegalStateException("Exception text."));
        captured.poster.event(BODY, "SomeType", "SomeReason", "Some message");
        assertThat(captured.next()).extracting(K8sEvent::type, K8sEvent::reason, K8sEvent::message)
                .containsExactly("Error", "IllegalStateException", "Some exception: Exception text.");
        assertThat(captured.next()).extracting(K8sEvent::type, K8sEvent::reason, K8sEvent::message)
                .containsExactly("SomeType", "SomeReason", "Some message");
    }

    @Test
    void everyObjectGetsItsEventWhateverItsForm() throws InterruptedException {
        Map<String, Object> ownerReference = Map.of("apiVersion", "v1", "kind", "Pod", "name", "p", "uid", "u2");
        Object objects = List.of(BODY, List.of(ownerReference, new ConfigMapBuilder().withNewMetadata()
                .withName("cm").withNamespace("other").withUid("u3").endMetadata().build()));
        captured.poster.info(objects, "Told", "all of them");
        assertThat(List.of(captured.next(), captured.next(), captured.next())).extracting(K8sEvent::reference)
                .containsExactly(
                Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample", "name", "ex", "uid", "u1", "namespace", "ns"),
                ownerReference,
                Map.of("apiVersion", "v1", "kind", "ConfigMap", "name", "cm", "uid", "u3", "namespace", "other"));
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
}
