package io.kopf4j.kits;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the hierarchies toolkit reads of an owner, given as a body ({@link Map}, e.g. a handler's
 * {@code Body}) or as a fabric8 {@link HasMetadata}: the fields of its owner reference, and the
 * namespace, name and labels that its children take.
 *
 * <pre>{@code
 * Owner owner = Owner.of(body);
 * Map<String, Object> reference = owner.ownerReference(true, true);
 * }</pre>
 *
 * @param labels the owner's labels, empty if none
 */
record Owner(String apiVersion, String kind, String name, String uid, String namespace,
                    Map<String, String> labels) {

    /**
     * The owner's fields.
     *
     * @throws IllegalArgumentException if it is neither a map nor a fabric8 object
     */
    public static Owner of(Object owner) {
        return switch (owner) {
            case Map<?, ?> body -> of(body);
            case HasMetadata typed -> of(typed);
            case null -> throw new IllegalArgumentException("the owner is null");
            default -> throw new IllegalArgumentException("An owner is given as a Map (a body, e.g. the handler's Body)"
                    + " or a fabric8 HasMetadata (e.g. a GenericKubernetesResource); got a "
                    + owner.getClass().getName() + ": " + owner);
        };
    }

    private static Owner of(Map<?, ?> body) {
        Map<?, ?> metadata = body.get("metadata") instanceof Map<?, ?> map ? map : Map.of();
        Map<String, String> labels = new LinkedHashMap<>();
        if (metadata.get("labels") instanceof Map<?, ?> map) {
            map.forEach((key, value) -> labels.put(String.valueOf(key), value == null ? null : value.toString()));
        }
        return new Owner(text(body.get("apiVersion")), text(body.get("kind")), text(metadata.get("name")),
                text(metadata.get("uid")), text(metadata.get("namespace")), labels);
    }

    private static Owner of(HasMetadata typed) {
        ObjectMeta metadata = typed.getMetadata() == null ? new ObjectMeta() : typed.getMetadata();
        Map<String, String> labels = metadata.getLabels() == null ? Map.of() : metadata.getLabels();
        return new Owner(typed.getApiVersion(), typed.getKind(), metadata.getName(), metadata.getUid(),
                metadata.getNamespace(), new LinkedHashMap<>(labels));
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }

    /**
     * Kopf's {@code build_owner_reference}: the fields in Kopf's order, those without a value left out.
     *
     * @param controller whether the owner is the child's controller; null leaves the field out
     * @param blockOwnerDeletion whether the child blocks its owner's foreground deletion; null leaves the field out
     * @return a new mutable map
     */
    public Map<String, Object> ownerReference(Boolean controller, Boolean blockOwnerDeletion) {
        Map<String, Object> reference = new LinkedHashMap<>();
        reference.put("controller", controller);
        reference.put("blockOwnerDeletion", blockOwnerDeletion);
        reference.put("apiVersion", apiVersion);
        reference.put("kind", kind);
        reference.put("name", name);
        reference.put("uid", uid);
        reference.values().removeIf(value -> value == null);
        return reference;
    }
}
