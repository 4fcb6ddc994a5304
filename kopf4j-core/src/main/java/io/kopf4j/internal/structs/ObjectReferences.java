package io.kopf4j.internal.structs;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kopf's object references ({@code build_object_reference}): apiVersion, kind, name, uid and
 * namespace of an object, those that are known, for Kubernetes Events and log lines.
 */
public final class ObjectReferences {
    private ObjectReferences() {
    }

    /**
     * The reference of an object given as its body ({@code metadata.name}, ...), or as a map that
     * already is a reference (an owner reference, an involved object: {@code name} at the top).
     */
    public static Map<String, Object> of(Map<?, ?> object) {
        Map<?, ?> metadata = object.get("metadata") instanceof Map<?, ?> map ? map
                : object.containsKey("metadata") ? Map.of() : object;
        return reference(object.get("apiVersion"), object.get("kind"), metadata.get("name"), metadata.get("uid"),
                metadata.get("namespace"));
    }

    /** The reference of a fabric8 object. */
    public static Map<String, Object> of(HasMetadata object) {
        ObjectMeta metadata = object.getMetadata() == null ? new ObjectMeta() : object.getMetadata();
        return reference(object.getApiVersion(), object.getKind(), metadata.getName(), metadata.getUid(),
                metadata.getNamespace());
    }

    /**
     * The reference of one object given as a {@link Map} or a fabric8 {@link HasMetadata}.
     *
     * @throws IllegalArgumentException for anything else, naming its type
     */
    public static Map<String, Object> of(Object object) {
        return switch (object) {
            case Map<?, ?> body -> of(body);
            case HasMetadata typed -> of(typed);
            case null -> throw new IllegalArgumentException("an object reference needs an object; got null");
            default -> throw K8sObjects.unsupported(object);
        };
    }

    /**
     * The references of one object or of many, flattened as {@link K8sObjects#walk} says.
     *
     * @throws IllegalArgumentException for anything but maps, fabric8 objects and iterables or arrays of them
     */
    public static List<Map<String, Object>> walk(Object objects) {
        return K8sObjects.walk(objects).stream().map(ObjectReferences::of).toList();
    }

    /** Kopf keeps only the fields with values: e.g. no namespace for cluster-scoped objects. */
    private static Map<String, Object> reference(Object apiVersion, Object kind, Object name, Object uid,
                                                 Object namespace) {
        Map<String, Object> reference = new LinkedHashMap<>();
        reference.put("apiVersion", apiVersion);
        reference.put("kind", kind);
        reference.put("name", name);
        reference.put("uid", uid);
        reference.put("namespace", namespace);
        reference.values().removeIf(value -> value == null || "".equals(value));
        return Collections.unmodifiableMap(reference);
    }
}
