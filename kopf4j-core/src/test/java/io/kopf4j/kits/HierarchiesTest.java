package io.kopf4j.kits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.kopf4j.Body;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Kopf's hierarchies toolkit (tests/hierarchies) on plain maps, fabric8's typed models and
 * GenericKubernetesResource, one object and many. The default owner inside a handler is tested in
 * {@code actions.RunningHandlerTest}.
 */
class HierarchiesTest {
    private static final Map<String, Object> OWNER = Map.of("apiVersion", "owner-api-version", "kind", "OwnerKind",
            "metadata", Map.of("namespace", "owner-namespace", "name", "owner-name", "uid", "owner-uid",
                    "labels", Map.of("label-1", "value-1", "label-2", "value-2")));
    private static final Map<String, Object> OWNER_REFERENCE = Map.of("controller", true, "blockOwnerDeletion", true,
            "apiVersion", "owner-api-version", "kind", "OwnerKind", "name", "owner-name", "uid", "owner-uid");

    /** A mutable body, as parsed from JSON or YAML. */
    @SafeVarargs
    private static Map<String, Object> body(Map.Entry<String, Object>... fields) {
        Map<String, Object> body = new LinkedHashMap<>();
        for (Map.Entry<String, Object> field : fields) {
            body.put(field.getKey(), field.getValue());
        }
        return body;
    }

    private static Map.Entry<String, Object> metadata(Object... keysAndValues) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            metadata.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return Map.entry("metadata", metadata);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> metadataOf(Map<String, Object> body) {
        return (Map<String, Object>) body.get("metadata");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> ownerReferencesOf(Map<String, Object> body) {
        return (List<Map<String, Object>>) metadataOf(body).get("ownerReferences");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> labelsOf(Map<String, Object> body) {
        return (Map<String, Object>) metadataOf(body).get("labels");
    }

    private static Pod pod() {
        return new Pod();
    }

    private static StatefulSet statefulSet() {
        return new StatefulSetBuilder().withNewSpec().withNewTemplate().endTemplate().endSpec().build();
    }

    private static GenericKubernetesResource generic() {
        return new GenericKubernetesResourceBuilder().withApiVersion("kopf.dev/v1").withKind("KopfExample")
                .addToAdditionalProperties("spec", new LinkedHashMap<>(Map.of("template", new LinkedHashMap<>())))
                .build();
    }

    /** Neither a list nor a set: any Iterable is walked, as Kopf's custom iterables. */
    private static <T> Iterable<T> iterable(List<T> items) {
        return items::iterator;
    }

    // Owner references

    @Test
    void ownerReferenceAppendedToAMapInKopfsFormatAndOrder() {
        Map<String, Object> obj = body();
        Hierarchies.appendOwnerReference(obj, OWNER);
        assertThat(ownerReferencesOf(obj)).singleElement().isEqualTo(OWNER_REFERENCE)
                .asString().isEqualTo("{controller=true, blockOwnerDeletion=true, apiVersion=owner-api-version,"
                        + " kind=OwnerKind, name=owner-name, uid=owner-uid}");
    }

    @Test
    void ownerReferenceAppendedWithTheFlagsOrWithoutThem() {
        Map<String, Object> obj = body();
        Hierarchies.appendOwnerReference(obj, OWNER, false, null);
        assertThat(ownerReferencesOf(obj)).singleElement().isEqualTo(Map.of(
                "controller", false, "apiVersion", "owner-api-version", "kind", "OwnerKind", "name", "owner-name",
                "uid", "owner-uid"));
    }

    @Test
    void ownerReferenceAppendedToManyMapsInListsArraysAndIterablesAtAnyDepth() {
        Map<String, Object> obj1 = body();
        Map<String, Object> obj2 = body(metadata("ownerReferences", List.of()));   // immutable: copied
        Map<String, Object> obj3 = body(Map.entry("metadata", Map.of("name", "fixed")));
        Hierarchies.appendOwnerReference(List.of(obj1, new Object[] {obj2, iterable(List.of(obj3))}), OWNER);
        for (Map<String, Object> obj : List.of(obj1, obj2, obj3)) {
            assertThat(ownerReferencesOf(obj)).containsExactly(OWNER_REFERENCE);
        }
        assertThat(metadataOf(obj3)).containsEntry("name", "fixed");
    }

    @Test
    void ownerReferenceAppendedToTypedObjectsWithoutMetadata() {
        Pod pod = pod();
        StatefulSet set = statefulSet();
        GenericKubernetesResource generic = generic();
        Hierarchies.appendOwnerReference(List.of(pod, set, generic), new Body(OWNER));
        for (ObjectMeta metadata : List.of(pod.getMetadata(), set.getMetadata(), generic.getMetadata())) {
            assertThat(metadata.getOwnerReferences()).singleElement().satisfies(reference -> {
                assertThat(reference.getApiVersion()).isEqualTo("owner-api-version");
                assertThat(reference.getKind()).isEqualTo("OwnerKind");
                assertThat(reference.getName()).isEqualTo("owner-name");
                assertThat(reference.getUid()).isEqualTo("owner-uid");
                assertThat(reference.getController()).isTrue();
                assertThat(reference.getBlockOwnerDeletion()).isTrue();
            });
        }
    }

    @Test
    void aTypedOwnerGivesTheSameReferenceAsItsBody() {
        GenericKubernetesResource owner = new GenericKubernetesResourceBuilder().withApiVersion("owner-api-version")
                .withKind("OwnerKind").withNewMetadata().withName("owner-name").withUid("owner-uid").endMetadata().build();
        Map<String, Object> obj = body();
        Hierarchies.appendOwnerReference(obj, owner);
        assertThat(ownerReferencesOf(obj)).containsExactly(OWNER_REFERENCE);
        assertThat(Hierarchies.buildOwnerReference(owner)).isEqualTo(OWNER_REFERENCE);
    }

    @Test
    void ownerReferencesDeduplicatedByUidWhateverTheOtherFields() {
        Map<String, Object> obj = body();
        Pod pod = new PodBuilder().withNewMetadata().withOwnerReferences(List.of(new OwnerReferenceBuilder()
                .withKind("Other").withName("other").withUid("owner-uid").build())).endMetadata().build();
        Hierarchies.appendOwnerReference(List.of(obj, pod), owner("KindA", "name-a", "owner-uid"));
        Hierarchies.appendOwnerReference(List.of(obj, pod), owner("KindB", "name-b", "owner-uid"));
        assertThat(ownerReferencesOf(obj)).singleElement().extracting(reference -> reference.get("kind"))
                .isEqualTo("KindA");
        assertThat(pod.getMetadata().getOwnerReferences()).singleElement().extracting(OwnerReference::getKind)
                .isEqualTo("Other");
    }

    @Test
    void ownerReferencesDistinguishedByUid() {
        Map<String, Object> obj = body();
        Pod pod = pod();
        Hierarchies.appendOwnerReference(List.of(obj, pod), owner("OwnerKind", "owner-name", "uid-a"), false, false);
        Hierarchies.appendOwnerReference(List.of(obj, pod), owner("OwnerKind", "owner-name", "uid-b"), false, false);
        assertThat(ownerReferencesOf(obj)).extracting(reference -> reference.get("uid")).containsExactly("uid-a", "uid-b");
        assertThat(pod.getMetadata().getOwnerReferences()).extracting(OwnerReference::getUid)
                .containsExactly("uid-a", "uid-b");
    }

    @Test
    void ownerReferencesRemovedByUidOnlyLeavingAnEmptyList() {
        Map<String, Object> obj = body();
        Pod pod = pod();
        GenericKubernetesResource generic = generic();
        List<Object> objs = List.of(obj, pod, generic);
        Hierarchies.appendOwnerReference(objs, owner("KindA", "name-a", "uid-0"), false, false);
        Hierarchies.appendOwnerReference(objs, owner("KindB", "name-b", "uid-1"), false, false);
        Hierarchies.removeOwnerReference(objs, owner("KindC", "name-c", "uid-0"));
        assertThat(ownerReferencesOf(obj)).extracting(reference -> reference.get("uid")).containsExactly("uid-1");
        assertThat(pod.getMetadata().getOwnerReferences()).extracting(OwnerReference::getUid).containsExactly("uid-1");
        assertThat(generic.getMetadata().getOwnerReferences()).extracting(OwnerReference::getUid).containsExactly("uid-1");

        Map<String, Object> never = body();
        Pod neverPod = pod();
        Hierarchies.removeOwnerReference(List.of(never, neverPod), OWNER);
        assertThat(metadataOf(never)).containsEntry("ownerReferences", List.of());
        assertThat(neverPod.getMetadata().getOwnerReferences()).isEmpty();
    }

    @Test
    void anOwnerWithoutUidCannotOwn() {
        assertThatThrownBy(() -> Hierarchies.appendOwnerReference(body(), Map.of("kind", "OwnerKind")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs the owner's metadata.uid");
        Hierarchies.appendOwnerReference(List.of(), Map.of("kind", "OwnerKind"));   // no object: nothing to refuse
    }

    private static Map<String, Object> owner(String kind, String name, String uid) {
        return Map.of("apiVersion", "owner-api-version", "kind", kind, "metadata", Map.of("name", name, "uid", uid));
    }

    // Labels

    @Test
    void labelsAddedToMapsAndTypedObjectsWithoutMetadata() {
        Map<String, Object> obj = body();
        Pod pod = pod();
        GenericKubernetesResource generic = generic();
        Hierarchies.label(new Object[] {obj, pod, generic}, Map.of("label-1", "value-1", "label-2", "value-2"));
        assertThat(metadataOf(obj)).containsEntry("labels", Map.of("label-1", "value-1", "label-2", "value-2"));
        assertThat(pod.getMetadata().getLabels()).isEqualTo(Map.of("label-1", "value-1", "label-2", "value-2"));
        assertThat(generic.getMetadata().getLabels()).isEqualTo(Map.of("label-1", "value-1", "label-2", "value-2"));
    }

    @Test
    void existingLabelsKeptUnlessForced() {
        Map<String, Object> obj = body(metadata("labels", Map.of("label", "old-value")));
        Pod pod = new PodBuilder().withNewMetadata().withLabels(Map.of("label", "old-value")).endMetadata().build();
        Hierarchies.label(List.of(obj, pod), Map.of("label", "new-value", "other", "new-value"));
        assertThat(metadataOf(obj)).containsEntry("labels", Map.of("label", "old-value", "other", "new-value"));
        assertThat(pod.getMetadata().getLabels()).isEqualTo(Map.of("label", "old-value", "other", "new-value"));

        Hierarchies.label(List.of(obj, pod), Map.of("label", "new-value"), true);
        assertThat(metadataOf(obj)).containsEntry("labels", Map.of("label", "new-value", "other", "new-value"));
        assertThat(pod.getMetadata().getLabels()).isEqualTo(Map.of("label", "new-value", "other", "new-value"));
    }

    @Test
    void aNullLabelValueIsAValueAsInKopf() {
        Map<String, String> removal = new LinkedHashMap<>();
        removal.put("label", null);
        Map<String, Object> obj = body();
        Hierarchies.label(obj, removal);
        assertThat(labelsOf(obj)).containsEntry("label", null);
        Hierarchies.label(obj, Map.of("label", "value"));
        assertThat(labelsOf(obj)).as("present, though null").containsEntry("label", null);
    }

    @Test
    void nestedObjectsOfMapsAreLabelledWhereTheyExist() {
        Map<String, Object> job = body(metadata("labels", Map.of("label", "old-value")));
        Map<String, Object> template = new LinkedHashMap<>();
        Map<String, Object> cronJob = body(metadata(), Map.entry("spec", new LinkedHashMap<>(Map.of("jobTemplate", template))));
        Hierarchies.label(List.of(job, cronJob), Map.of("label", "new-value"), false, "spec.jobTemplate", "spec.unexistent");
        assertThat(metadataOf(job)).containsEntry("labels", Map.of("label", "old-value"));
        assertThat(job).doesNotContainKey("spec");
        assertThat(metadataOf(cronJob)).containsEntry("labels", Map.of("label", "new-value"));
        assertThat(template).isEqualTo(Map.of("metadata", Map.of("labels", Map.of("label", "new-value"))));
        assertThat(cronJob.get("spec")).isEqualTo(Map.of("jobTemplate", template));

        Hierarchies.label(cronJob, Map.of("label", "forced"), true, "spec.jobTemplate");
        assertThat(template).isEqualTo(Map.of("metadata", Map.of("labels", Map.of("label", "forced"))));
    }

    @Test
    void nestedTemplatesOfTypedObjectsAreLabelled() {
        StatefulSet set = statefulSet();
        StatefulSet withoutTemplate = new StatefulSetBuilder().withNewSpec().endSpec().build();
        Pod pod = pod();
        GenericKubernetesResource generic = generic();
        Hierarchies.label(List.of(set, withoutTemplate, pod, generic), Map.of("app", "web"), false,
                "spec.template", "spec.unexistent");
        assertThat(set.getMetadata().getLabels()).isEqualTo(Map.of("app", "web"));
        assertThat(set.getSpec().getTemplate().getMetadata().getLabels()).isEqualTo(Map.of("app", "web"));
        assertThat(withoutTemplate.getSpec().getTemplate()).isNull();
        assertThat(pod.getMetadata().getLabels()).isEqualTo(Map.of("app", "web"));
        assertThat(generic.getAdditionalProperties().get("spec"))
                .isEqualTo(Map.of("template", Map.of("metadata", Map.of("labels", Map.of("app", "web")))));
    }

    @Test
    void aTemplateAloneIsLabelledAsAnObject() {
        StatefulSet set = statefulSet();
        Hierarchies.label(set.getSpec().getTemplate(), Map.of("app", "web"));
        assertThat(set.getSpec().getTemplate().getMetadata().getLabels()).isEqualTo(Map.of("app", "web"));
        assertThat(set.getMetadata()).isNull();
    }

    @Test
    void aNestedValueWithoutMetadataIsNotAnObject() {
        Map<String, Object> obj = body(Map.entry("spec", Map.of("replicas", 3)));
        assertThatThrownBy(() -> Hierarchies.label(obj, Map.of("a", "b"), false, "spec.replicas"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("K8s object class is not supported: java.lang.Integer");
    }

    // Naming

    @Test
    void existingNamesArePreservedUnlessForced() {
        for (boolean strict : new boolean[] {true, false}) {
            Map<String, Object> named = body(metadata("name", "a"));
            Map<String, Object> generated = body(metadata("generateName", "b"));
            Map<String, Object> both = body(metadata("name", "c", "generateName", "d"));
            Pod pod = new PodBuilder().withNewMetadata().withGenerateName("e").endMetadata().build();
            Hierarchies.harmonizeNaming(List.of(named, generated, both, pod), "provided-name", false, strict);
            assertThat(metadataOf(named)).isEqualTo(Map.of("name", "a"));
            assertThat(metadataOf(generated)).isEqualTo(Map.of("generateName", "b"));
            assertThat(metadataOf(both)).isEqualTo(Map.of("name", "c", "generateName", "d"));
            assertThat(pod.getMetadata().getGenerateName()).isEqualTo("e");
            assertThat(pod.getMetadata().getName()).isNull();
        }
    }

    @Test
    void forcedStrictNamesReplaceBothNames() {
        Map<String, Object> both = body(metadata("name", "c", "generateName", "d"));
        Pod pod = new PodBuilder().withNewMetadata().withGenerateName("e").endMetadata().build();
        Hierarchies.harmonizeNaming(List.of(both, pod), "provided-name", true, true);
        assertThat(metadataOf(both)).isEqualTo(Map.of("name", "provided-name"));
        assertThat(pod.getMetadata().getName()).isEqualTo("provided-name");
        assertThat(pod.getMetadata().getGenerateName()).isNull();
    }

    @Test
    void forcedRelaxedNamesBecomePrefixes() {
        Map<String, Object> both = body(metadata("name", "c", "generateName", "d"));
        StatefulSet set = new StatefulSetBuilder().withNewMetadata().withName("f").endMetadata().build();
        Hierarchies.harmonizeNaming(List.of(both, set), "provided-name", true, false);
        assertThat(metadataOf(both)).isEqualTo(Map.of("generateName", "provided-name-"));
        assertThat(set.getMetadata().getGenerateName()).isEqualTo("provided-name-");
        assertThat(set.getMetadata().getName()).isNull();
    }

    @Test
    void absentNamesAreAssignedAsPrefixesOrStrictly() {
        Map<String, Object> withoutMetadata = body();
        Map<String, Object> withMetadata = body(metadata());
        Pod pod = pod();
        GenericKubernetesResource generic = generic();
        Hierarchies.harmonizeNaming(List.of(withoutMetadata, withMetadata, pod, generic), "provided-name");
        assertThat(metadataOf(withoutMetadata)).isEqualTo(Map.of("generateName", "provided-name-"));
        assertThat(metadataOf(withMetadata)).isEqualTo(Map.of("generateName", "provided-name-"));
        assertThat(pod.getMetadata().getGenerateName()).isEqualTo("provided-name-");
        assertThat(generic.getMetadata().getGenerateName()).isEqualTo("provided-name-");

        StatefulSet set = statefulSet();
        Map<String, Object> obj = body();
        Hierarchies.harmonizeNaming(List.of(set, obj), "provided-name", false, true);
        assertThat(set.getMetadata().getName()).isEqualTo("provided-name");
        assertThat(set.getMetadata().getGenerateName()).isNull();
        assertThat(metadataOf(obj)).isEqualTo(Map.of("name", "provided-name"));
    }

    @Test
    void aPresentNullNameCountsAsANameInMapsAsInKopfsDicts() {
        Map<String, Object> obj = body(metadata("name", null));
        Hierarchies.harmonizeNaming(obj, "provided-name");
        assertThat(metadataOf(obj)).containsOnlyKeys("name");
    }

    // Namespaces

    @Test
    void existingNamespacesArePreservedUnlessForced() {
        Map<String, Object> obj = body(metadata("namespace", "a"));
        Pod pod = new PodBuilder().withNewMetadata().withNamespace("a").endMetadata().build();
        Hierarchies.adjustNamespace(List.of(obj, pod), "provided-namespace");
        assertThat(metadataOf(obj)).containsEntry("namespace", "a");
        assertThat(pod.getMetadata().getNamespace()).isEqualTo("a");

        Hierarchies.adjustNamespace(List.of(obj, pod), "provided-namespace", true);
        assertThat(metadataOf(obj)).containsEntry("namespace", "provided-namespace");
        assertThat(pod.getMetadata().getNamespace()).isEqualTo("provided-namespace");
    }

    @Test
    void absentOrNullNamespacesAreAssigned() {
        Map<String, Object> withoutMetadata = body();
        Map<String, Object> withNull = body(metadata("namespace", null));
        StatefulSet set = statefulSet();
        GenericKubernetesResource generic = generic();
        Hierarchies.adjustNamespace(iterable(List.of(withoutMetadata, withNull, set, generic)), "provided-namespace");
        assertThat(metadataOf(withoutMetadata)).isEqualTo(Map.of("namespace", "provided-namespace"));
        assertThat(metadataOf(withNull)).isEqualTo(Map.of("namespace", "provided-namespace"));
        assertThat(set.getMetadata().getNamespace()).isEqualTo("provided-namespace");
        assertThat(generic.getMetadata().getNamespace()).isEqualTo("provided-namespace");
    }

    // Adopting

    @Test
    void adoptionOwnsNamesPlacesAndLabelsMapsAndTypedObjects() {
        Map<String, Object> obj = body();
        Pod pod = pod();
        GenericKubernetesResource generic = generic();
        Hierarchies.adopt(List.of(obj, pod, generic), OWNER);

        assertThat(obj).isEqualTo(Map.of("metadata", Map.of("ownerReferences", List.of(OWNER_REFERENCE),
                "generateName", "owner-name-", "namespace", "owner-namespace",
                "labels", Map.of("label-1", "value-1", "label-2", "value-2"))));
        for (ObjectMeta metadata : List.of(pod.getMetadata(), generic.getMetadata())) {
            assertThat(metadata.getOwnerReferences()).extracting(OwnerReference::getUid).containsExactly("owner-uid");
            assertThat(metadata.getGenerateName()).isEqualTo("owner-name-");
            assertThat(metadata.getName()).isNull();
            assertThat(metadata.getNamespace()).isEqualTo("owner-namespace");
            assertThat(metadata.getLabels()).isEqualTo(Map.of("label-1", "value-1", "label-2", "value-2"));
        }
    }

    @Test
    void adoptionKeepsWhatTheChildrenHaveUnlessForced() {
        StatefulSet set = new StatefulSetBuilder().withNewMetadata().withName("own").withNamespace("elsewhere")
                .withLabels(Map.of("label-1", "own")).endMetadata()
                .withNewSpec().withNewTemplate().endTemplate().endSpec().build();
        Hierarchies.adopt(set, OWNER, false, false, "spec.template");
        assertThat(set.getMetadata().getName()).isEqualTo("own");
        assertThat(set.getMetadata().getGenerateName()).isNull();
        assertThat(set.getMetadata().getNamespace()).isEqualTo("elsewhere");
        assertThat(set.getMetadata().getLabels()).isEqualTo(Map.of("label-1", "own", "label-2", "value-2"));
        assertThat(set.getSpec().getTemplate().getMetadata().getLabels())
                .isEqualTo(Map.of("label-1", "value-1", "label-2", "value-2"));

        Hierarchies.adopt(set, OWNER, true, true, "spec.template");
        assertThat(set.getMetadata().getName()).isEqualTo("owner-name");
        assertThat(set.getMetadata().getNamespace()).isEqualTo("owner-namespace");
        assertThat(set.getMetadata().getLabels()).isEqualTo(Map.of("label-1", "value-1", "label-2", "value-2"));
        assertThat(set.getMetadata().getOwnerReferences()).hasSize(1);
    }

    @Test
    void adoptionByAClusterScopedOwnerLeavesTheNamespaceNull() {
        Map<String, Object> obj = body();
        Hierarchies.adopt(obj, Map.of("apiVersion", "v1", "kind", "Node", "metadata", Map.of("name", "n", "uid", "u")));
        assertThat(metadataOf(obj)).containsEntry("namespace", null).containsEntry("generateName", "n-");
    }

    @Test
    void anOwnerWithoutNameCannotNameTheChildren() {
        assertThatThrownBy(() -> Hierarchies.adopt(List.of(), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Name must be set explicitly: couldn't find it automatically");
    }

    // References

    @Test
    void objectReferencesHaveTheKnownFieldsOnly() {
        assertThat(Hierarchies.buildObjectReference(OWNER)).isEqualTo(Map.of("apiVersion", "owner-api-version",
                "kind", "OwnerKind", "name", "owner-name", "uid", "owner-uid", "namespace", "owner-namespace"));
        Pod pod = new PodBuilder().withNewMetadata().withName("p").endMetadata().build();
        assertThat(Hierarchies.buildObjectReference(pod)).isEqualTo(Map.of("apiVersion", "v1", "kind", "Pod", "name", "p"));
    }

    @Test
    void ownerReferencesOfOneOwnerOrMany() {
        assertThat(Hierarchies.buildOwnerReference(new Body(OWNER))).isEqualTo(OWNER_REFERENCE);
        Pod pod = new PodBuilder().withNewMetadata().withName("p").withUid("pod-uid").endMetadata().build();
        assertThat(Hierarchies.buildOwnerReferences(List.of(OWNER, pod), false, null)).containsExactly(
                Map.of("controller", false, "apiVersion", "owner-api-version", "kind", "OwnerKind",
                        "name", "owner-name", "uid", "owner-uid"),
                Map.of("controller", false, "apiVersion", "v1", "kind", "Pod", "name", "p", "uid", "pod-uid"));
        assertThat(Hierarchies.buildOwnerReferences(OWNER)).containsExactly(OWNER_REFERENCE);
    }

    // Type validation

    @Test
    void unsupportedObjectsAreNamed() {
        Object unsupported = new Object();
        List<Runnable> calls = List.of(
                () -> Hierarchies.appendOwnerReference(unsupported, OWNER),
                () -> Hierarchies.removeOwnerReference(unsupported, OWNER),
                () -> Hierarchies.harmonizeNaming(unsupported, "x"),
                () -> Hierarchies.adjustNamespace(unsupported, "x"),
                () -> Hierarchies.label(unsupported, Map.of()),
                () -> Hierarchies.adopt(unsupported, OWNER));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("K8s object class is not supported: java.lang.Object");
        }
    }

    @Test
    void unsupportedOwnersAreNamed() {
        assertThatThrownBy(() -> Hierarchies.adopt(body(), "owner")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got a java.lang.String: owner");
    }

    @Test
    void withoutAnOwnerOutsideAHandlerEachMethodSaysItsName() {
        Map<String, Runnable> calls = new LinkedHashMap<>();
        calls.put("adopt", () -> Hierarchies.adopt(List.of()));
        calls.put("appendOwnerReference", () -> Hierarchies.appendOwnerReference(List.of()));
        calls.put("removeOwnerReference", () -> Hierarchies.removeOwnerReference(List.of()));
        calls.put("label", () -> Hierarchies.label(List.of()));
        calls.put("harmonizeNaming", () -> Hierarchies.harmonizeNaming(List.of()));
        calls.put("adjustNamespace", () -> Hierarchies.adjustNamespace(List.of()));
        calls.forEach((method, call) -> assertThatThrownBy(call::run).isInstanceOf(IllegalStateException.class)
                .hasMessage("Hierarchies." + method + ": the owner must be set explicitly, since running outside"
                        + " of a resource handler (or on another thread than the handler's): pass it, e.g. the"
                        + " handler's Body"));
    }
}
