package io.kopf4j.internal.engines.children;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.Body;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.Resource;
import io.kopf4j.internal.actions.HandlerState;
import io.kopf4j.internal.intents.ChildrenHandler;
import io.kopf4j.internal.intents.SpawningCause;
import io.kopf4j.internal.runtime.Metrics;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a children handler returned, made so: each child applied unless the live child already has
 * what would be applied ({@link OwnedFields}: no request at rest), then, once all are applied, the
 * children this handler applied before and did not return deleted (never another handler's or
 * another operator's), then the ready condition set on the parent. A result that cannot be applied
 * is a failure of the handler, told in its log line and in the condition.
 *
 * <pre>{@code
 * boolean done = applier.apply(handler, returned, cause, parentUid);   // false: retry after the backoff
 * }</pre>
 */
final class ChildrenApplier {
    private final ChildCache cache;
    private final ChildWrites writes;
    private final Map<ChildrenHandler, Map<String, Resource>> kinds;
    private final String fieldManager;
    private final Metrics metrics;

    /**
     * @param kinds each handler's declared kinds, their resources by group/kind
     * @param fieldManager the operator's field manager, the children's label
     */
    ChildrenApplier(ChildCache cache, ChildWrites writes, Map<ChildrenHandler, Map<String, Resource>> kinds,
                    String fieldManager, Metrics metrics) {
        this.cache = cache;
        this.writes = writes;
        this.kinds = kinds;
        this.fieldManager = fieldManager;
        this.metrics = metrics;
    }

    /**
     * Applies the returned children, prunes the others, sets the ready condition.
     *
     * @param returned what the handler returned
     * @param cause the parent's event: its logger, and its patch for the condition
     * @return whether all went through; false after a failure logged (to be retried)
     */
    boolean apply(ChildrenHandler handler, Object returned, SpawningCause cause, String parentUid) {
        Map<String, Resource> declared = kinds.getOrDefault(handler, Map.of());
        String condition = handler.options().get(Option.ReadyCondition.class).map(Option.ReadyCondition::type).orElse(null);
        Body parent = new Body(cause.raw());
        List<DesiredChildren.Child> desired;
        try {
            desired = DesiredChildren.of(returned, cause.raw(), fieldManager, handler.id(), declared.keySet());
        } catch (IllegalArgumentException e) {
            cause.logger().error("{} returned children that cannot be applied: {}", handler.title(), e.getMessage());
            setFailed(condition, parent, cause, "InvalidChildren", e.getMessage());
            return false;
        }
        Map<String, Map<String, Object>> live = new LinkedHashMap<>();
        for (Map<String, Object> child : cache.childrenOf(parentUid)) {
            live.put(key(child), child);
        }
        List<Map.Entry<DesiredChildren.Child, Map<String, Object>>> applied = new ArrayList<>();
        for (DesiredChildren.Child child : desired) {
            Map<String, Object> seen = live.get(key(child));
            if (seen != null && OwnedFields.unchanged(child.body(), seen, fieldManager)) {
                applied.add(Map.entry(child, seen));
                continue;
            }
            try {
                // Kept so that its watch event is an echo, not a change; the newer version if the watch was quicker.
                Map<String, Object> stored = cache.applied(writes.apply(declared.get(child.groupKind()), child, cause.logger()));
                metrics.childWrite("apply");
                cause.logger().info("Child {} is {}.", child, seen == null ? "created" : "applied");
                applied.add(Map.entry(child, stored));
            } catch (KubernetesClientException e) {
                String message = "Child " + child + " cannot be applied: " + HandlerState.messageOf(e);
                cause.logger().error("{} returned a child that cannot be applied, {}: {}", handler.title(), child,
                        HandlerState.messageOf(e));
                setFailed(condition, parent, cause, "ApplyFailed", message);
                return false;   // nothing pruned: a child not applied may still need what would go
            }
        }
        prune(handler, declared, desired, live.values(), cause);
        if (condition != null) {
            ReadyCondition.children(condition, parent, cause.patch(), applied);
        }
        return true;
    }

    /** Deletes this handler's children of its declared kinds that it no longer returns. */
    private void prune(ChildrenHandler handler, Map<String, Resource> declared, List<DesiredChildren.Child> desired,
                       Iterable<Map<String, Object>> live, SpawningCause cause) {
        Set<String> kept = new HashSet<>();
        desired.forEach(child -> kept.add(key(child)));
        for (Map<String, Object> child : live) {
            Map<?, ?> metadata = (Map<?, ?>) child.get("metadata");
            Resource resource = declared.get(groupKind(child));
            boolean ours = metadata.get("annotations") instanceof Map<?, ?> annotations
                    && handler.id().equals(annotations.get(DesiredChildren.HANDLER));
            if (resource == null || !ours || kept.contains(key(child))) {
                continue;
            }
            String namespace = metadata.get("namespace") instanceof String text ? text : null;
            String name = String.valueOf(metadata.get("name"));
            if (writes.delete(resource, namespace, name, String.valueOf(metadata.get("uid")), cause.logger())) {
                metrics.childWrite("delete");
                cause.logger().info("Child {} '{}' is deleted: {} returns it no more.", resource.kind(),
                        namespace == null ? name : namespace + "/" + name, handler.title());
            }
        }
    }

    private static void setFailed(String condition, Body parent, SpawningCause cause, String reason, String message) {
        if (condition != null) {
            ReadyCondition.failed(condition, parent, cause.patch(), reason, message);
        }
    }

    private static String key(DesiredChildren.Child child) {
        return child.groupKind() + "/" + Objects.toString(child.namespace(), "") + "/" + child.name();
    }

    private static String key(Map<String, Object> child) {
        Map<?, ?> metadata = (Map<?, ?>) child.get("metadata");
        return groupKind(child) + "/" + Objects.toString(metadata.get("namespace"), "") + "/" + metadata.get("name");
    }

    /** The group/kind of a live child, as {@link DesiredChildren.Child#groupKind()} writes it. */
    private static String groupKind(Map<String, Object> child) {
        String apiVersion = String.valueOf(child.get("apiVersion"));
        int slash = apiVersion.indexOf('/');
        return (slash < 0 ? "" : apiVersion.substring(0, slash)) + "/" + child.get("kind");
    }
}
