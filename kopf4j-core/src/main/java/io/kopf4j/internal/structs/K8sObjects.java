package io.kopf4j.internal.structs;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One Kubernetes object or many, as Kopf's {@code dicts.walk} flattens them for {@code kopf.event}
 * and the hierarchies toolkit: an object is a {@link Map} (a body, e.g. a handler's {@code Body},
 * or an object reference) or a fabric8 model ({@link KubernetesResource}: an object such as a
 * {@code Pod} or a {@code GenericKubernetesResource}, or a part of one such as a
 * {@code PodTemplateSpec}, which the callers accept or refuse); {@link Iterable}s and arrays of
 * them are flattened at any depth; null is no object.
 *
 * <pre>{@code
 * K8sObjects.walk(List.of(pod, new Object[] {body, null}));   // [pod, body]
 * }</pre>
 */
public final class K8sObjects {
    private K8sObjects() {
    }

    /**
     * The objects, flattened, in their order.
     *
     * @throws IllegalArgumentException for anything else, naming its type (Kopf's "K8s object class is not supported")
     */
    public static List<Object> walk(Object objects) {
        List<Object> found = new ArrayList<>();
        walk(objects, found);
        return found;
    }

    private static void walk(Object objects, List<Object> found) {
        switch (objects) {
            case null -> {
            }
            case Map<?, ?> body -> found.add(body);
            case KubernetesResource object -> found.add(object);
            case Iterable<?> many -> many.forEach(object -> walk(object, found));
            case Object[] many -> Arrays.asList(many).forEach(object -> walk(object, found));
            default -> throw unsupported(objects);
        }
    }

    /** Kopf's error for an object of a type it cannot handle, with the types it can. */
    public static IllegalArgumentException unsupported(Object object) {
        return new IllegalArgumentException("K8s object class is not supported: " + object.getClass().getName()
                + " (" + object + "); objects are given as a Map (a body, e.g. a Body, or an object reference),"
                + " a fabric8 object (e.g. a Pod or a GenericKubernetesResource), or an Iterable or array of them");
    }
}
