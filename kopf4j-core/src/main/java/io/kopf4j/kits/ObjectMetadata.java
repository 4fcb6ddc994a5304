package io.kopf4j.kits;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.K8sObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The metadata of one object that the hierarchies toolkit adjusts, whatever the object's form: the
 * JSON maps of a body ({@link JsonMetadata}) or fabric8's typed {@code ObjectMeta}
 * ({@link TypedMetadata}). Each operation is one of Kopf's, on one object.
 *
 * <pre>{@code
 * for (ObjectMetadata metadata : ObjectMetadata.walk(List.of(pod, statefulSet), List.of("spec.template"))) {
 *     metadata.label(Map.of("app", "web"), false);
 * }
 * }</pre>
 */
sealed interface ObjectMetadata permits JsonMetadata, TypedMetadata {

    /**
     * The metadata of each object (flattened as {@link K8sObjects#walk} says; a part of an object, such
     * as a {@code PodTemplateSpec}, counts as one if it has metadata), each followed by the
     * metadata of its nested objects at these dotted paths (e.g. a StatefulSet's
     * {@code spec.template}) where they exist, as Kopf's {@code dicts.walk(objs, nested=...)}.
     *
     * @throws IllegalArgumentException for an object, or a nested one, that has no metadata to adjust
     */
    static List<ObjectMetadata> walk(Object objects, List<String> nested) {
        List<ObjectMetadata> found = new ArrayList<>();
        for (Object object : K8sObjects.walk(objects)) {
            found.add(of(object));
            for (String path : nested) {
                Object child = Fields.resolve(object, Dicts.parseField(path));
                if (child != null) {
                    found.add(of(child));
                }
            }
        }
        return found;
    }

    @SuppressWarnings("unchecked")
    private static ObjectMetadata of(Object object) {
        return switch (object) {
            case Map<?, ?> body -> new JsonMetadata((Map<String, Object>) body);
            case HasMetadata typed -> TypedMetadata.of(typed);
            case KubernetesResource part -> new TypedMetadata(Fields.metadata(part));
            default -> throw K8sObjects.unsupported(object);
        };
    }

    /** Kopf's {@code append_owner_reference}: added unless a reference with the same uid is there. */
    void appendOwnerReference(Map<String, Object> reference);

    /** Kopf's {@code remove_owner_reference}: every reference with this uid removed. */
    void removeOwnerReference(String uid);

    /** Kopf's {@code label}: each label set if absent, or always if forced; null values kept as null. */
    void label(Map<String, String> labels, boolean forced);

    /**
     * Kopf's {@code harmonize_naming}: if the object has neither a name nor a generateName, or if
     * forced, the name itself (strict) or {@code <name>-} as generateName (the other one removed).
     */
    void harmonizeNaming(String name, boolean forced, boolean strict);

    /** Kopf's {@code adjust_namespace}: the namespace set if the object has none, or always if forced. */
    void adjustNamespace(String namespace, boolean forced);
}
