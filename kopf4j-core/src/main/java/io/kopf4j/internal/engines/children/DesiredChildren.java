package io.kopf4j.internal.engines.children;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.structs.K8sObjects;
import io.kopf4j.internal.structs.TypedJson;
import io.kopf4j.kits.Hierarchies;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a children handler returned, made ready for server-side apply: each child a JSON map, made
 * the parent's own as {@code Hierarchies.adopt} makes it (a controller owner reference; the parent's
 * name when it has none, since an apply needs a name; the parent's namespace; the parent's labels),
 * labelled as this operator's ({@code kopf4j.dev/managed-by}, which narrows the children's watch),
 * and stripped of what the server owns (status, uid, resourceVersion, managedFields). Errors name the
 * child by its place in the result and what it is.
 *
 * <pre>{@code
 * List<DesiredChildren.Child> children = DesiredChildren.of(returned, parent, "kopf4j", "children", Set.of("apps/Deployment"));
 * }</pre>
 */
final class DesiredChildren {
    /** The label that marks a child as applied by this operator (its field manager). */
    static final String MANAGED_BY = "kopf4j.dev/managed-by";
    /** The annotation that names the handler whose child it is: a handler prunes only its own children. */
    static final String HANDLER = "kopf4j.dev/children-handler";
    /** What the API server sets and an apply must not claim. */
    private static final List<String> SERVER_METADATA = List.of("uid", "resourceVersion", "generation", "creationTimestamp",
            "deletionTimestamp", "deletionGracePeriodSeconds", "managedFields", "selfLink");

    private DesiredChildren() {
    }

    /**
     * One child as it will be applied.
     *
     * @param group the API group, empty for the core group
     * @param kind the kind
     * @param namespace the namespace, or null for a cluster-scoped child
     * @param name the name
     * @param body the object to apply
     */
    record Child(String group, String kind, String namespace, String name, Map<String, Object> body) {
        /** {@return the group and kind, e.g. {@code apps/Deployment} or {@code /ConfigMap}} */
        String groupKind() {
            return group + "/" + kind;
        }

        @Override
        public String toString() {
            return kind + " '" + (namespace == null ? "" : namespace + "/") + name + "'";
        }
    }

    /**
     * The children to apply.
     *
     * @param returned what the handler returned: a fabric8 object, a map, an iterable or array of them, or null
     * @param parent the parent's body
     * @param fieldManager the operator's field manager, the value of the {@link #MANAGED_BY} label
     * @param handler the id of the handler that returned them, the value of the {@link #HANDLER} annotation
     * @param declared the group/kind of each declared kind of children ({@link Child#groupKind()})
     * @return the children in the handler's order
     * @throws IllegalArgumentException naming the child and the rule it breaks
     */
    static List<Child> of(Object returned, Map<String, Object> parent, String fieldManager, String handler,
                          Set<String> declared) {
        List<Child> children = new ArrayList<>();
        List<Object> objects = K8sObjects.walk(returned);
        for (int i = 0; i < objects.size(); i++) {
            Child child = child(objects.get(i), i, parent, fieldManager, handler);
            if (!declared.contains(child.groupKind())) {
                throw new IllegalArgumentException("child #" + (i + 1) + ", " + child + ", is of a kind the handler does not"
                        + " declare, so its changes would not be seen: add it to kinds or resources, declared: " + declared);
            }
            for (Child earlier : children) {
                if (earlier.groupKind().equals(child.groupKind()) && earlier.name().equals(child.name())
                        && java.util.Objects.equals(earlier.namespace(), child.namespace())) {
                    throw new IllegalArgumentException("child #" + (i + 1) + " is " + child + " again: each child needs a"
                            + " name of its own (one without a name gets the parent's)");
                }
            }
            children.add(child);
        }
        return children;
    }

    @SuppressWarnings("unchecked")
    private static Child child(Object object, int index, Map<String, Object> parent, String fieldManager, String handler) {
        Map<String, Object> body = switch (object) {
            case Map<?, ?> map -> Json.deepCopy((Map<String, Object>) map);
            case KubernetesResource typed -> TypedJson.fieldsOf(typed);
            default -> throw K8sObjects.unsupported(object);
        };
        String apiVersion = text(body.get("apiVersion"));
        String kind = text(body.get("kind"));
        if (apiVersion.isEmpty() || kind.isEmpty()) {
            throw new IllegalArgumentException("child #" + (index + 1) + " has no apiVersion or kind: " + Json.compact(body));
        }
        Map<String, Object> metadata = body.get("metadata") instanceof Map<?, ?> given
                ? (Map<String, Object>) given : new LinkedHashMap<>();
        body.put("metadata", metadata);
        if (!text(metadata.get("generateName")).isEmpty() && text(metadata.get("name")).isEmpty()) {
            throw new IllegalArgumentException("child #" + (index + 1) + ", a " + kind + ", has only a generateName: a child"
                    + " is applied by its name, so that it is the same object at every run; give it a name");
        }
        Hierarchies.adopt(body, parent, false, true);
        metadata = (Map<String, Object>) body.get("metadata");   // adopting may have put a new map there
        Map<String, Object> labels = metadata.get("labels") instanceof Map<?, ?> given
                ? (Map<String, Object>) given : new LinkedHashMap<>();
        labels.put(MANAGED_BY, fieldManager);
        metadata.put("labels", labels);
        Map<String, Object> annotations = metadata.get("annotations") instanceof Map<?, ?> given
                ? (Map<String, Object>) given : new LinkedHashMap<>();
        annotations.put(HANDLER, handler);
        metadata.put("annotations", annotations);
        SERVER_METADATA.forEach(metadata::remove);
        body.remove("status");
        int slash = apiVersion.indexOf('/');
        String namespace = text(metadata.get("namespace"));
        return new Child(slash < 0 ? "" : apiVersion.substring(0, slash), kind, namespace.isEmpty() ? null : namespace,
                text(metadata.get("name")), body);
    }

    private static String text(Object value) {
        return value instanceof String text ? text : "";
    }
}
