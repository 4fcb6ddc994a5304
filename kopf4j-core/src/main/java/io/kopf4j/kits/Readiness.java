package io.kopf4j.kits;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.kopf4j.StatusConditions;
import io.kopf4j.internal.structs.TypedJson;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a child object is ready, by the rules that kstatus ({@code kubectl wait}, Argo CD, Flux)
 * applies to the common kinds, so that a parent can report its children's state without polling
 * them by hand: a Deployment is ready when all its replicas are updated and available, a StatefulSet
 * when all are ready and on the current revision, a Job when it is complete, a PersistentVolumeClaim
 * when it is bound, a Pod when it runs and is ready (or has succeeded), a LoadBalancer Service when it
 * has an address. Any other kind is ready when its controller has seen its latest generation
 * ({@code status.observedGeneration}) and its {@code Ready} condition, if it has one, is true; a
 * ConfigMap or Secret is ready once it exists.
 *
 * <pre>{@code
 * Readiness web = Readiness.of(client.apps().deployments().inNamespace(ns).withName("web").get());
 * conditions.set("Ready", web.ready(), web.reason(), web.message());   // e.g. false, "Progressing", "Available: 0/1"
 * }</pre>
 *
 * @param ready the object is ready
 * @param failed it will not become ready by itself (a failed Job or Pod, a Deployment past its progress deadline)
 * @param reason why, a CamelCase word fit for a condition's reason: {@code Ready}, {@code Progressing},
 *               {@code Failed}, {@code NotFound}
 * @param message for humans, e.g. {@code "Available: 1/3"}; empty when ready
 */
public record Readiness(boolean ready, boolean failed, String reason, String message) {
    /** A child that does not exist (yet, or any more): not ready. */
    public static final Readiness ABSENT = new Readiness(false, false, "NotFound", "not found");
    private static final Readiness READY = new Readiness(true, false, "Ready", "");

    /**
     * The readiness of an object: a fabric8 model or a JSON map; null is {@link #ABSENT}.
     *
     * @param object the object as last read
     * @return its readiness
     */
    public static Readiness of(Object object) {
        if (object == null) {
            return ABSENT;
        }
        Map<String, Object> body = switch (object) {
            case Map<?, ?> fields -> map(fields);
            case KubernetesResource typed -> TypedJson.fieldsOf(typed);
            default -> throw new IllegalArgumentException("not a Kubernetes object: " + object.getClass().getName());
        };
        String kind = body.get("kind") instanceof String text ? text : "";
        Map<String, Object> spec = map(body.get("spec"));
        Map<String, Object> status = map(body.get("status"));
        Optional<Readiness> behind = behind(body, status);
        if (behind.isPresent()) {
            return behind.get();
        }
        return switch (kind) {
            case "Deployment" -> deployment(spec, status);
            case "StatefulSet" -> statefulSet(spec, status);
            case "ReplicaSet" -> replicas("Ready", replicas(spec), number(status, "readyReplicas"))
                    .orElseGet(() -> replicas("Available", replicas(spec), number(status, "availableReplicas")).orElse(READY));
            case "DaemonSet" -> daemonSet(status);
            case "Job" -> job(status);
            case "PersistentVolumeClaim" -> "Bound".equals(status.get("phase")) ? READY
                    : new Readiness(false, false, "Pending", "phase: " + status.getOrDefault("phase", "Pending"));
            case "Pod" -> pod(status);
            case "Service" -> service(spec, status);
            case "ConfigMap", "Secret", "ServiceAccount", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding" -> READY;
            default -> generic(status);
        };
    }

    /** A controller that has not seen the latest spec yet: whatever its status says is about an older one. */
    private static Optional<Readiness> behind(Map<String, Object> body, Map<String, Object> status) {
        Long generation = number(map(body.get("metadata")), "generation");
        Long observed = number(status, "observedGeneration");
        if (generation != null && observed != null && observed < generation) {
            return Optional.of(new Readiness(false, false, "Progressing",
                    "observed generation " + observed + " of " + generation));
        }
        return Optional.empty();
    }

    private static Readiness deployment(Map<String, Object> spec, Map<String, Object> status) {
        Optional<Map<String, Object>> progressing = condition(status, "Progressing");
        if (progressing.isPresent() && "ProgressDeadlineExceeded".equals(progressing.get().get("reason"))) {
            return new Readiness(false, true, "ProgressDeadlineExceeded", text(progressing.get().get("message")));
        }
        long wanted = replicas(spec);
        long updated = orZero(number(status, "updatedReplicas"));
        long total = orZero(number(status, "replicas"));
        if (updated < wanted) {
            return new Readiness(false, false, "Progressing", "Updated: " + updated + "/" + wanted);
        }
        if (total > updated) {
            return new Readiness(false, false, "Progressing", "Pending termination: " + (total - updated));
        }
        return replicas("Available", wanted, number(status, "availableReplicas"))
                .or(() -> replicas("Ready", wanted, number(status, "readyReplicas")))
                .orElse(READY);
    }

    /**
     * kstatus' rules: an {@code OnDelete} set is current as it is; a partitioned rollout is done once
     * the replicas above the partition are updated; a scale-down waits for the extra pods to go.
     */
    private static Readiness statefulSet(Map<String, Object> spec, Map<String, Object> status) {
        Map<String, Object> strategy = map(spec.get("updateStrategy"));
        if ("OnDelete".equals(strategy.get("type"))) {
            return READY;
        }
        long wanted = replicas(spec);
        long total = orZero(number(status, "replicas"));
        if (total > wanted) {
            return new Readiness(false, false, "Progressing", "Pending termination: " + (total - wanted));
        }
        Optional<Readiness> notReady = replicas("Ready", wanted, number(status, "readyReplicas"));
        if (notReady.isPresent()) {
            return notReady.get();
        }
        Long partition = number(map(strategy.get("rollingUpdate")), "partition");
        long updated = orZero(number(status, "updatedReplicas"));
        if (partition != null && partition > 0) {
            long due = Math.max(0, wanted - partition);
            return updated < due ? new Readiness(false, false, "Progressing", "Updated: " + updated + "/" + due) : READY;
        }
        Object update = status.get("updateRevision");
        if (update != null && !update.equals(status.get("currentRevision"))) {
            return new Readiness(false, false, "Progressing", "Updated: " + updated + "/" + wanted);
        }
        return READY;
    }

    private static Readiness daemonSet(Map<String, Object> status) {
        long wanted = orZero(number(status, "desiredNumberScheduled"));
        return replicas("Updated", wanted, number(status, "updatedNumberScheduled"))
                .or(() -> replicas("Available", wanted, number(status, "numberAvailable")))
                .orElse(READY);
    }

    private static Readiness job(Map<String, Object> status) {
        if (conditionIs(status, "Failed")) {
            return new Readiness(false, true, "Failed", text(condition(status, "Failed").get().get("message")));
        }
        if (conditionIs(status, "Complete")) {
            return READY;
        }
        return new Readiness(false, false, "Running", "Succeeded: " + orZero(number(status, "succeeded")));
    }

    private static Readiness pod(Map<String, Object> status) {
        Object phase = status.getOrDefault("phase", "Pending");
        if ("Succeeded".equals(phase)) {
            return READY;
        }
        if ("Failed".equals(phase)) {
            return new Readiness(false, true, "Failed", text(status.get("message")));
        }
        if ("Running".equals(phase) && conditionIs(status, "Ready")) {
            return READY;
        }
        return new Readiness(false, false, "Pending", "phase: " + phase);
    }

    private static Readiness service(Map<String, Object> spec, Map<String, Object> status) {
        if (!"LoadBalancer".equals(spec.get("type"))) {
            return READY;
        }
        Object ingress = map(status.get("loadBalancer")).get("ingress");
        return ingress instanceof List<?> list && !list.isEmpty() ? READY
                : new Readiness(false, false, "Pending", "no load balancer address yet");
    }

    /** Other kinds, custom resources among them: a {@code Ready} condition if they have one, else being there. */
    private static Readiness generic(Map<String, Object> status) {
        Optional<Map<String, Object>> ready = condition(status, "Ready");
        if (ready.isEmpty() || "True".equals(ready.get().get("status"))) {
            return READY;
        }
        // Another controller's reason, fit for the parent's condition (the API refuses anything but one CamelCase word).
        return new Readiness(false, false, StatusConditions.reason(text(ready.get().get("reason")), "NotReady"),
                text(ready.get().get("message")));
    }

    /** Not ready while fewer than wanted are counted; the message as kubectl's columns: {@code Ready: 1/3}. */
    private static Optional<Readiness> replicas(String what, long wanted, Long counted) {
        long count = orZero(counted);
        return count < wanted ? Optional.of(new Readiness(false, false, "Progressing", what + ": " + count + "/" + wanted))
                : Optional.empty();
    }

    /** {@code spec.replicas}, 1 when absent, as the API server defaults it. */
    private static long replicas(Map<String, Object> spec) {
        Long replicas = number(spec, "replicas");
        return replicas == null ? 1 : replicas;
    }

    private static boolean conditionIs(Map<String, Object> status, String type) {
        return condition(status, type).map(condition -> "True".equals(condition.get("status"))).orElse(false);
    }

    private static Optional<Map<String, Object>> condition(Map<String, Object> status, String type) {
        if (status.get("conditions") instanceof List<?> list) {
            for (Object item : list) {
                Map<String, Object> condition = map(item);
                if (type.equals(condition.get("type"))) {
                    return Optional.of(condition);
                }
            }
        }
        return Optional.empty();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    private static Long number(Map<String, Object> fields, String key) {
        return fields.get(key) instanceof Number number ? number.longValue() : null;
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }

    private static String text(Object value) {
        return value instanceof String text ? text : "";
    }
}
