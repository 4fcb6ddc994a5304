package io.kopf4j.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.kopf4j.HandlerFn;
import io.kopf4j.Reason;
import io.kopf4j.RunningHandler;
import io.kopf4j.SubHandler;
import io.kopf4j.internal.intents.ChangingHandler;
import io.kopf4j.internal.intents.Filters;
import io.kopf4j.internal.intents.ResourceSelector;
import io.kopf4j.kits.Hierarchies;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Kopf's contextual owner (tests/hierarchies/test_contextual_owner.py): inside a resource handler,
 * on its thread, the toolkit's owner, name, namespace and labels are those of the handled object.
 */
class RunningHandlerTest {
    private static final Map<String, Object> RAW = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "metadata", Map.of("name", "owner-name", "namespace", "owner-namespace", "uid", "owner-uid",
                    "labels", Map.of("label-1", "value-1")));

    private final WatchingFixture watching = new WatchingFixture();

    @AfterEach
    void close() {
        watching.close();
    }

    private Outcome runEventHandler(HandlerFn function) {
        return watching.run(RAW, function);
    }

    @Test
    void anEventHandlersObjectAdoptsWithoutBeingNamed() {
        Map<String, Object> child = new LinkedHashMap<>();
        Pod pod = new Pod();
        assertThat(runEventHandler(context -> {
            Hierarchies.adopt(List.of(child, pod));
            return null;
        }).succeeded()).isTrue();

        assertThat(child).isEqualTo(Map.of("metadata", Map.of(
                "ownerReferences", List.of(Map.of("controller", true, "blockOwnerDeletion", true,
                        "apiVersion", "kopf.dev/v1", "kind", "KopfExample", "name", "owner-name", "uid", "owner-uid")),
                "generateName", "owner-name-", "namespace", "owner-namespace", "labels", Map.of("label-1", "value-1"))));
        assertThat(pod.getMetadata().getOwnerReferences()).extracting(OwnerReference::getUid).containsExactly("owner-uid");
        assertThat(pod.getMetadata().getGenerateName()).isEqualTo("owner-name-");
        assertThat(pod.getMetadata().getNamespace()).isEqualTo("owner-namespace");
        assertThat(pod.getMetadata().getLabels()).isEqualTo(Map.of("label-1", "value-1"));
    }

    @Test
    void eachStepTakesTheHandledObjectsFieldsAndTheReferenceGoesAgain() {
        Map<String, Object> child = new LinkedHashMap<>();
        assertThat(runEventHandler(context -> {
            Hierarchies.appendOwnerReference(child);
            Hierarchies.harmonizeNaming(child, null, false, true);
            Hierarchies.adjustNamespace(child);
            Hierarchies.label(child);
            assertThat(child).isEqualTo(Map.of("metadata", Map.of("ownerReferences", List.of(Hierarchies.buildOwnerReference(RAW)),
                    "name", "owner-name", "namespace", "owner-namespace", "labels", Map.of("label-1", "value-1"))));
            Hierarchies.removeOwnerReference(child);
            return null;
        }).succeeded()).isTrue();
        assertThat(child.get("metadata")).isEqualTo(Map.of("ownerReferences", List.of(), "name", "owner-name",
                "namespace", "owner-namespace", "labels", Map.of("label-1", "value-1")));
    }

    @Test
    void aChangingHandlerAndItsSubHandlersSeeTheirObject() {
        ObjectFixture object = new ObjectFixture(Map.of("app", "web"));
        AtomicReference<Map<String, Object>> parentsChild = new AtomicReference<>();
        AtomicReference<Map<String, Object>> subhandlersChild = new AtomicReference<>();
        ChangingHandler handler = new ChangingHandler("create", Reason.CREATE, false, false, false, null, null, null,
                null, null, null, Filters.NONE, ResourceSelector.parse("kopfexamples"), context -> {
                    parentsChild.set(labelled());
                    context.execute(List.of(SubHandler.id("sub").handle(sub -> {
                        subhandlersChild.set(labelled());
                        return null;
                    })));
                    return null;
                }, "test");
        assertThat(object.handle(List.of(handler)).get("create").succeeded()).isTrue();
        assertThat(parentsChild.get()).isEqualTo(Map.of("metadata", Map.of("labels", Map.of("app", "web"))));
        assertThat(subhandlersChild.get()).isEqualTo(Map.of("metadata", Map.of("labels", Map.of("app", "web"))));
    }

    private static Map<String, Object> labelled() {
        Map<String, Object> child = new LinkedHashMap<>();
        Hierarchies.label(child);
        return child;
    }

    @Test
    void anotherThreadHasNoHandlerAndTheHandlersThreadHasNoneAfterwards() {
        AtomicReference<Throwable> elsewhere = new AtomicReference<>();
        runEventHandler(context -> CompletableFuture.runAsync(() -> {
            try {
                Hierarchies.adopt(new Pod());
            } catch (IllegalStateException e) {
                elsewhere.set(e);
            }
        }));
        assertThat(elsewhere.get()).hasMessageStartingWith("Hierarchies.adopt: the owner must be set explicitly");
        assertThat(RunningHandler.current()).isEmpty();
        assertThatThrownBy(() -> Hierarchies.label(new Pod())).isInstanceOf(IllegalStateException.class);
    }
}
