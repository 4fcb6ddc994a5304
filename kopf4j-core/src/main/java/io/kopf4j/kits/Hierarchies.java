package io.kopf4j.kits;

import io.kopf4j.Body;
import io.kopf4j.HandlerContext;
import io.kopf4j.RunningHandler;
import io.kopf4j.internal.structs.K8sObjects;
import io.kopf4j.internal.structs.ObjectReferences;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Kopf's hierarchies toolkit: children that a handler creates, made its object's own before they
 * are sent to the API server: owner references, the owner's name (as a prefix or exactly), its
 * namespace and its labels. Kopf's {@code kopf.adopt}, {@code kopf.append_owner_reference},
 * {@code kopf.remove_owner_reference}, {@code kopf.label}, {@code kopf.harmonize_naming},
 * {@code kopf.adjust_namespace}, {@code kopf.build_object_reference} and
 * {@code kopf.build_owner_reference}, with their formats and rules.
 *
 * <pre>{@code
 * @On.Create("kopfexamples")
 * public String create(Spec spec, KubernetesClient client) {
 *     Pod pod = new PodBuilder().withNewSpec().addNewContainer().withName("main").withImage("busybox")
 *             .endContainer().endSpec().build();
 *     Hierarchies.adopt(pod);   // owner reference, generateName "<name>-", namespace, labels
 *     return client.pods().resource(pod).create().getMetadata().getName();
 * }
 * }</pre>
 *
 * <p><b>Objects.</b> The {@code objects} to change are one object or many: a {@code Map} body (the
 * object must be mutable; its {@code metadata}, {@code labels} and {@code ownerReferences} are put
 * back as mutable copies), a fabric8 {@code HasMetadata} (a typed model such as {@code Pod} or
 * {@code StatefulSet}, or a {@code GenericKubernetesResource}), a part of one with its own metadata
 * (e.g. a {@code PodTemplateSpec}), or an {@code Iterable} or array of them, at any depth. Anything
 * else fails with an {@link IllegalArgumentException}, as Kopf's "K8s object class is not
 * supported". The objects are changed in place; nothing is sent.
 *
 * <p><b>Owners.</b> An {@code owner} is a {@code Map} body (e.g. the handler's {@link Body}) or a
 * fabric8 {@code HasMetadata}. The methods without an owner, name, namespace or labels (or given
 * null) take them from the object of the resource handler that runs on this thread (changing and
 * event handlers, sub-handlers, daemons, timers), as Kopf takes them from the current cause. Elsewhere
 * (activities, other threads such as a {@code CompletableFuture}'s) they throw an
 * {@link IllegalStateException} naming the method: pass the owner, e.g. the handler's {@code Body}.
 */
public final class Hierarchies {
    private static final List<String> NOT_NESTED = List.of();

    private Hierarchies() {
    }

    /**
     * Kopf's {@code kopf.adopt}: the children of the object being handled, as {@link #adopt(Object, Object)} says.
     *
     * <pre>{@code
     * Map<String, Object> pod = new HashMap<>(Map.of("apiVersion", "v1", "kind", "Pod", "spec", podSpec));
     * Hierarchies.adopt(pod);   // inside a handler: its object owns the pod
     * }</pre>
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @throws IllegalStateException outside a resource handler's thread
     */
    public static void adopt(Object objects) {
        adopt(objects, null, false, false);
    }

    /**
     * Kopf's {@code kopf.adopt}: makes the objects the owner's children, all in one: its owner
     * reference ({@link #appendOwnerReference(Object, Object)}), its name as their generateName
     * prefix ({@link #harmonizeNaming(Object, String)}), its namespace
     * ({@link #adjustNamespace(Object, String)}) and its labels ({@link #label(Object, Map)}), none
     * of which overwrites what the objects already have.
     *
     * <pre>{@code
     * Hierarchies.adopt(List.of(configMap, service), body);
     * }</pre>
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @param owner a body or a fabric8 object; null for the object being handled
     * @throws IllegalArgumentException if the owner has no name, or no uid
     */
    public static void adopt(Object objects, Object owner) {
        adopt(objects, owner, false, false);
    }

    /**
     * Kopf's {@code kopf.adopt} with its flags, passed to the steps that take them.
     *
     * <pre>{@code
     * // A StatefulSet named exactly as its owner; its pods' template labelled as the owner too.
     * Hierarchies.adopt(statefulSet, null, true, true, "spec.template");
     * }</pre>
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @param owner a body or a fabric8 object; null for the object being handled
     * @param forced overwrite the objects' names, namespaces and labels
     * @param strict the owner's name as the objects' name, not as their generateName prefix
     * @param nested dotted paths of nested objects to label too, where they exist (e.g. {@code spec.template})
     * @throws IllegalArgumentException if the owner has no name, or no uid
     * @throws IllegalStateException with a null owner outside a resource handler's thread
     */
    public static void adopt(Object objects, Object owner, boolean forced, boolean strict, String... nested) {
        Owner real = owner(owner, "adopt");
        appendReference(objects, real, true, true);
        harmonize(objects, real.name(), forced, strict);
        adjust(objects, real.namespace(), forced);
        relabel(objects, real.labels(), forced, List.of(nested));
    }

    /**
     * Kopf's {@code kopf.append_owner_reference}: the object being handled as the objects' owner.
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @throws IllegalStateException outside a resource handler's thread
     */
    public static void appendOwnerReference(Object objects) {
        appendOwnerReference(objects, null);
    }

    /**
     * Kopf's {@code kopf.append_owner_reference}: the owner's reference ({@link #buildOwnerReference(Object)}:
     * controller and blocking its deletion) appended to each object's {@code metadata.ownerReferences},
     * unless one with the owner's uid is there already.
     *
     * <pre>{@code
     * Hierarchies.appendOwnerReference(configMap, body);
     * }</pre>
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @param owner a body or a fabric8 object; null for the object being handled
     * @throws IllegalArgumentException if the owner has no uid
     */
    public static void appendOwnerReference(Object objects, Object owner) {
        appendOwnerReference(objects, owner, true, true);
    }

    /**
     * Kopf's {@code kopf.append_owner_reference} with its flags.
     *
     * <pre>{@code
     * // One of several owners: neither the controller nor blocking the owner's deletion.
     * Hierarchies.appendOwnerReference(configMap, otherOwner, false, false);
     * }</pre>
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @param owner a body or a fabric8 object; null for the object being handled
     * @param controller whether the owner is the objects' controller; null leaves the field out
     * @param blockOwnerDeletion whether the objects block the owner's foreground deletion; null leaves the field out
     * @throws IllegalArgumentException if the owner has no uid
     */
    public static void appendOwnerReference(Object objects, Object owner, Boolean controller,
                                            Boolean blockOwnerDeletion) {
        appendReference(objects, owner(owner, "appendOwnerReference"), controller, blockOwnerDeletion);
    }

    private static void appendReference(Object objects, Owner owner, Boolean controller, Boolean blockOwnerDeletion) {
        Map<String, Object> reference = owner.ownerReference(controller, blockOwnerDeletion);
        for (ObjectMetadata metadata : withUid(ObjectMetadata.walk(objects, NOT_NESTED), owner)) {
            metadata.appendOwnerReference(reference);
        }
    }

    /**
     * Kopf's {@code kopf.remove_owner_reference}: the object being handled is no more the objects' owner.
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @throws IllegalStateException outside a resource handler's thread
     */
    public static void removeOwnerReference(Object objects) {
        removeOwnerReference(objects, null);
    }

    /**
     * Kopf's {@code kopf.remove_owner_reference}: every owner reference with the owner's uid removed
     * from the objects (whatever its other fields).
     *
     * <pre>{@code
     * Hierarchies.removeOwnerReference(configMap, body);
     * client.configMaps().resource(configMap).update();
     * }</pre>
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @param owner a body or a fabric8 object; null for the object being handled
     * @throws IllegalArgumentException if the owner has no uid
     */
    public static void removeOwnerReference(Object objects, Object owner) {
        Owner real = owner(owner, "removeOwnerReference");
        for (ObjectMetadata metadata : withUid(ObjectMetadata.walk(objects, NOT_NESTED), real)) {
            metadata.removeOwnerReference(real.uid());
        }
    }

    /**
     * Kopf's {@code kopf.label}: the labels of the object being handled.
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @throws IllegalStateException outside a resource handler's thread
     */
    public static void label(Object objects) {
        label(objects, null);
    }

    /**
     * Kopf's {@code kopf.label}: the labels set on the objects where they have none of that key.
     *
     * <pre>{@code
     * Hierarchies.label(List.of(job, deployment), Map.of("app", "web", "tier", "front"));
     * }</pre>
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @param labels the labels; null for those of the object being handled (an empty map changes nothing)
     */
    public static void label(Object objects, Map<String, String> labels) {
        label(objects, labels, false);
    }

    /**
     * Kopf's {@code kopf.label} with its flags.
     *
     * <pre>{@code
     * // The Deployment and its pods' template; existing values overwritten.
     * Hierarchies.label(deployment, Map.of("app", "web"), true, "spec.template");
     * }</pre>
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @param labels the labels; null for those of the object being handled
     * @param forced overwrite labels the objects already have
     * @param nested dotted paths of nested objects to label too, where they exist (e.g. {@code spec.template}),
     *               their metadata created if absent
     * @throws IllegalStateException with null labels outside a resource handler's thread
     */
    public static void label(Object objects, Map<String, String> labels, boolean forced, String... nested) {
        relabel(objects, labels != null ? labels : owner(null, "label").labels(), forced, List.of(nested));
    }

    private static void relabel(Object objects, Map<String, String> labels, boolean forced, List<String> nested) {
        for (ObjectMetadata metadata : ObjectMetadata.walk(objects, nested)) {
            metadata.label(labels, forced);
        }
    }

    /**
     * Kopf's {@code kopf.harmonize_naming}: the name of the object being handled, as a prefix.
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @throws IllegalStateException outside a resource handler's thread
     */
    public static void harmonizeNaming(Object objects) {
        harmonizeNaming(objects, null);
    }

    /**
     * Kopf's {@code kopf.harmonize_naming}: objects with neither a {@code name} nor a
     * {@code generateName} get {@code <name>-} as their {@code generateName}, for the API server
     * to add a random suffix (read the actual name from its response).
     *
     * <pre>{@code
     * Hierarchies.harmonizeNaming(pods, "web");   // generateName: web-
     * }</pre>
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @param name the name; null for the name of the object being handled
     */
    public static void harmonizeNaming(Object objects, String name) {
        harmonizeNaming(objects, name, false, false);
    }

    /**
     * Kopf's {@code kopf.harmonize_naming} with its flags.
     *
     * <pre>{@code
     * Hierarchies.harmonizeNaming(statefulSet, "web", true, true);   // name: web, no generateName
     * }</pre>
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @param name the name; null for the name of the object being handled
     * @param forced rename objects that have a name or a generateName
     * @param strict the name itself as the {@code name} (the {@code generateName} removed), not as a prefix
     * @throws IllegalArgumentException if the object being handled has no name
     * @throws IllegalStateException with a null name outside a resource handler's thread
     */
    public static void harmonizeNaming(Object objects, String name, boolean forced, boolean strict) {
        harmonize(objects, name != null ? name : owner(null, "harmonizeNaming").name(), forced, strict);
    }

    /** With the name as given: Kopf's adopt passes the owner's, even if it has none. */
    private static void harmonize(Object objects, String name, boolean forced, boolean strict) {
        if (name == null) {
            throw new IllegalArgumentException("Name must be set explicitly: couldn't find it automatically"
                    + " (the owner has no metadata.name).");
        }
        for (ObjectMetadata metadata : ObjectMetadata.walk(objects, NOT_NESTED)) {
            metadata.harmonizeNaming(name, forced, strict);
        }
    }

    /**
     * Kopf's {@code kopf.adjust_namespace}: the namespace of the object being handled.
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @throws IllegalStateException outside a resource handler's thread
     */
    public static void adjustNamespace(Object objects) {
        adjustNamespace(objects, null);
    }

    /**
     * Kopf's {@code kopf.adjust_namespace}: the namespace set on the objects that have none.
     *
     * <pre>{@code
     * Hierarchies.adjustNamespace(configMap, "production");
     * }</pre>
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @param namespace the namespace; null for that of the object being handled (none if it is cluster-scoped)
     */
    public static void adjustNamespace(Object objects, String namespace) {
        adjustNamespace(objects, namespace, false);
    }

    /**
     * Kopf's {@code kopf.adjust_namespace} with its flag.
     *
     * <pre>{@code
     * Hierarchies.adjustNamespace(configMap, "production", true);   // whatever it had
     * }</pre>
     *
     * @param objects the objects to change in place: a body, a fabric8 object, or an iterable or array of them
     * @param namespace the namespace; null for that of the object being handled
     * @param forced overwrite the objects' namespaces
     * @throws IllegalStateException with a null namespace outside a resource handler's thread
     */
    public static void adjustNamespace(Object objects, String namespace, boolean forced) {
        adjust(objects, namespace != null ? namespace : owner(null, "adjustNamespace").namespace(), forced);
    }

    /** With the namespace as given: Kopf's adopt passes the owner's, null if it is cluster-scoped. */
    private static void adjust(Object objects, String namespace, boolean forced) {
        for (ObjectMetadata metadata : ObjectMetadata.walk(objects, NOT_NESTED)) {
            metadata.adjustNamespace(namespace, forced);
        }
    }

    /**
     * Kopf's {@code kopf.build_object_reference}: an object's {@code apiVersion}, {@code kind},
     * {@code name}, {@code uid} and {@code namespace}, those it has, e.g. for an Event's
     * {@code involvedObject}.
     *
     * <pre>{@code
     * Map<String, Object> reference = Hierarchies.buildObjectReference(pod);
     * // {apiVersion=v1, kind=Pod, name=web-x7k2p, uid=..., namespace=default}
     * }</pre>
     *
     * @param object a body or a fabric8 object
     * @return an unmodifiable map
     */
    public static Map<String, Object> buildObjectReference(Object object) {
        return ObjectReferences.of(object);
    }

    /**
     * Kopf's {@code kopf.build_owner_reference}: the owner reference to an object, as its controller
     * that blocks its deletion: {@code controller}, {@code blockOwnerDeletion}, {@code apiVersion},
     * {@code kind}, {@code name}, {@code uid}, those it has.
     *
     * <pre>{@code
     * Map<String, Object> reference = Hierarchies.buildOwnerReference(body);
     * // {controller=true, blockOwnerDeletion=true, apiVersion=kopf.dev/v1, kind=KopfExample, name=..., uid=...}
     * }</pre>
     *
     * @param owner a body or a fabric8 object
     * @return a new mutable map
     */
    public static Map<String, Object> buildOwnerReference(Object owner) {
        return buildOwnerReference(owner, true, true);
    }

    /**
     * Kopf's {@code kopf.build_owner_reference} with its flags.
     *
     * <pre>{@code
     * Map<String, Object> reference = Hierarchies.buildOwnerReference(body, false, null);
     * // {controller=false, apiVersion=..., kind=..., name=..., uid=...}
     * }</pre>
     *
     * @param owner a body or a fabric8 object
     * @param controller the {@code controller} field; null leaves it out
     * @param blockOwnerDeletion the {@code blockOwnerDeletion} field; null leaves it out
     * @return a new mutable map
     */
    public static Map<String, Object> buildOwnerReference(Object owner, Boolean controller,
                                                          Boolean blockOwnerDeletion) {
        return Owner.of(owner).ownerReference(controller, blockOwnerDeletion);
    }

    /**
     * The owner references to one object or many ({@link #buildOwnerReference(Object)} each), e.g.
     * for an object's {@code metadata.ownerReferences}. Kubernetes accepts at most one controller
     * among an object's owners: for several, use {@link #buildOwnerReferences(Object, Boolean, Boolean)}.
     *
     * <pre>{@code
     * List<Map<String, Object>> references = Hierarchies.buildOwnerReferences(body);
     * }</pre>
     *
     * @param owners bodies or fabric8 objects, or iterables or arrays of them
     * @return a new mutable list, of new mutable maps
     */
    public static List<Map<String, Object>> buildOwnerReferences(Object owners) {
        return buildOwnerReferences(owners, true, true);
    }

    /**
     * The owner references to one object or many, with these flags.
     *
     * <pre>{@code
     * Map<String, Object> metadata = Map.of("ownerReferences",
     *         Hierarchies.buildOwnerReferences(List.of(database, backup), false, false));
     * }</pre>
     *
     * @param owners bodies or fabric8 objects, or iterables or arrays of them
     * @param controller the {@code controller} field; null leaves it out
     * @param blockOwnerDeletion the {@code blockOwnerDeletion} field; null leaves it out
     * @return a new mutable list, of new mutable maps
     */
    public static List<Map<String, Object>> buildOwnerReferences(Object owners, Boolean controller,
                                                                 Boolean blockOwnerDeletion) {
        return new ArrayList<>(K8sObjects.walk(owners).stream()
                .map(owner -> buildOwnerReference(owner, controller, blockOwnerDeletion)).toList());
    }

    /** The given owner, or the object of the handler running on this thread, as Kopf's {@code _guess_owner}. */
    private static Owner owner(Object owner, String method) {
        if (owner != null) {
            return Owner.of(owner);
        }
        return Owner.of(RunningHandler.current().map(HandlerContext::body).orElseThrow(() -> new IllegalStateException(
                "Hierarchies." + method + ": the owner must be set explicitly, since running outside of a resource"
                        + " handler (or on another thread than the handler's): pass it, e.g. the handler's Body")));
    }

    /** An owner reference without the owner's uid would match others' and be rejected by the API server. */
    private static List<ObjectMetadata> withUid(List<ObjectMetadata> objects, Owner owner) {
        if (!objects.isEmpty() && (owner.uid() == null || owner.uid().isBlank())) {
            throw new IllegalArgumentException("An owner reference needs the owner's metadata.uid; the owner has none: "
                    + owner);
        }
        return objects;
    }
}
