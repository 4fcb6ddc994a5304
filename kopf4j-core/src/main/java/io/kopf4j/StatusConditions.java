package io.kopf4j;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Kubernetes-style conditions in an object's {@code status.conditions}, read from its body and
 * written through the handler's {@link Patch}, as controller-runtime's {@code meta.SetStatusCondition}
 * keeps them: a condition is added with its {@code lastTransitionTime} now; a change of its
 * {@code status} moves that time, a change of its reason, message or observed generation does not;
 * the conditions not touched stay as they are, in their order. The whole list goes into the patch,
 * in the same PATCH as Kopf's own state, and only if something changed: setting a condition to what
 * it already says writes nothing.
 *
 * <p>A handler declares it as a parameter ({@code StatusConditions conditions}) or makes it from its
 * body and patch ({@link #of(Body, Patch)}).
 *
 * <pre>{@code
 * @On.Update("databases")
 * public void update(Spec spec, StatusConditions conditions) {
 *     conditions.set("Ready", false, "Scaling", "2 of 3 replicas are ready");
 *     if (conditions.isTrue("Degraded")) { ... }
 * }
 * }</pre>
 *
 * <p>Each condition gets the object's {@code metadata.generation} as its {@code observedGeneration}:
 * the generation the condition speaks for. An object whose CRD has no status subresource gets a new
 * generation at every status write, so that the condition would never catch up; there,
 * {@link #withoutObservedGeneration()}.
 */
public final class StatusConditions {
    /** The condition's statuses in Kubernetes' API conventions. */
    public static final String TRUE = "True";
    /** The condition does not hold. */
    public static final String FALSE = "False";
    /** Whether the condition holds is not known. */
    public static final String UNKNOWN = "Unknown";
    /** apimachinery's {@code metav1.Condition} validation: a reason is a CamelCase word of letters, digits, {@code _ , :}. */
    private static final Pattern REASON = Pattern.compile("[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?");
    /** A qualified name, as the API validates a condition's type: an optional DNS-subdomain prefix and a name of at most 63. */
    private static final Pattern TYPE = Pattern.compile(
            "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]");
    private static final int MAX_TYPE = 316;
    private static final int MAX_REASON = 1024;
    private static final int MAX_MESSAGE = 32768;

    private final List<Map<String, Object>> conditions;
    private final Patch patch;
    private final Long generation;
    private final Clock clock;
    private boolean observedGeneration = true;
    private boolean changed;

    private StatusConditions(List<Map<String, Object>> conditions, Patch patch, Long generation, Clock clock) {
        this.conditions = conditions;
        this.patch = patch;
        this.generation = generation;
        this.clock = clock;
    }

    /**
     * The conditions of this object, written through this patch.
     *
     * @param body the object as the handler sees it
     * @param patch the handler's patch, where a changed list goes
     * @return its conditions
     */
    public static StatusConditions of(Body body, Patch patch) {
        return of(body, patch, Clock.systemUTC());
    }

    static StatusConditions of(Body body, Patch patch, Clock clock) {
        Object generation = body.meta().get("generation");
        // What the handler (or a sub-handler, or another StatusConditions) already set in this patch comes first:
        // each writes the whole list, so starting from the object's would drop those changes.
        Object pending = Objects.requireNonNull(patch, "patch").status().get("conditions");
        return new StatusConditions(read(pending instanceof List<?> ? pending : body.status().get("conditions")), patch,
                generation instanceof Number number ? number.longValue() : null, clock);
    }

    /** A copy of each condition that is a map with a type; the rest of a malformed list (garbage, duplicates) is dropped. */
    private static List<Map<String, Object>> read(Object listed) {
        List<Map<String, Object>> conditions = new ArrayList<>();
        if (listed instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> map && map.get("type") instanceof String type
                        && conditions.stream().noneMatch(known -> type.equals(known.get("type")))) {
                    Map<String, Object> condition = new LinkedHashMap<>();
                    map.forEach((key, value) -> condition.put(String.valueOf(key), value));
                    conditions.add(condition);
                }
            }
        }
        return conditions;
    }

    /**
     * Writes no {@code observedGeneration}: for objects whose status is no subresource of theirs.
     *
     * @return these conditions
     */
    public StatusConditions withoutObservedGeneration() {
        this.observedGeneration = false;
        return this;
    }

    /**
     * Sets a condition to {@code True} or {@code False}.
     *
     * @param type the condition's type, e.g. {@code "Ready"}
     * @param holds whether it holds
     * @param reason why, a CamelCase word, e.g. {@code "ReplicasNotReady"}
     * @param message for humans; may be empty
     * @return whether the list changed
     * @throws IllegalArgumentException naming the condition if its type or reason breaks Kubernetes' rules
     */
    public boolean set(String type, boolean holds, String reason, String message) {
        return set(type, holds ? TRUE : FALSE, reason, message);
    }

    /**
     * Sets a condition to a status: {@code True}, {@code False} or {@code Unknown}.
     *
     * @param type the condition's type, e.g. {@code "Ready"}
     * @param status {@link #TRUE}, {@link #FALSE} or {@link #UNKNOWN}
     * @param reason why, a CamelCase word, e.g. {@code "ReplicasNotReady"}
     * @param message for humans; may be empty; cut at 32768 characters, the API's limit
     * @return whether the list changed
     * @throws IllegalArgumentException naming the condition if its type, status or reason breaks Kubernetes' rules
     */
    public boolean set(String type, String status, String reason, String message) {
        checked(type, status, reason);
        String text = message == null ? "" : message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) : message;
        Map<String, Object> wanted = new LinkedHashMap<>();
        wanted.put("type", type);
        wanted.put("status", status);
        if (observedGeneration && generation != null) {
            wanted.put("observedGeneration", generation);
        }
        wanted.put("reason", reason);
        wanted.put("message", text);
        Optional<Map<String, Object>> existing = find(type);
        if (existing.isEmpty()) {
            wanted.put("lastTransitionTime", now());
            conditions.add(wanted);
            return written();
        }
        Map<String, Object> condition = existing.get();
        // A stored condition without a time (garbage, or another writer's) gets one, as a transition would.
        boolean transition = !status.equals(condition.get("status")) || !(condition.get("lastTransitionTime") instanceof String);
        boolean differs = transition || !reason.equals(condition.get("reason")) || !text.equals(condition.get("message"))
                || !Objects.equals(wanted.get("observedGeneration"), number(condition.get("observedGeneration")));
        if (!differs) {
            return false;
        }
        Object since = transition ? now() : condition.get("lastTransitionTime");
        condition.clear();
        condition.putAll(wanted);
        condition.put("lastTransitionTime", since);
        return written();
    }

    /**
     * The condition of this type, as the object (and this handler's changes) have it.
     *
     * @param type the condition's type
     * @return its fields ({@code type}, {@code status}, {@code reason}, {@code message},
     *         {@code lastTransitionTime}, {@code observedGeneration}), if present
     */
    public Optional<Map<String, Object>> get(String type) {
        return find(type).map(StatusConditions::readOnly);
    }

    /**
     * A reason from elsewhere (a child's condition) as a condition's reason may be: itself if valid,
     * else its words in CamelCase, else the fallback.
     *
     * <pre>{@code
     * StatusConditions.reason("minimum replicas unavailable", "NotReady");   // "MinimumReplicasUnavailable"
     * }</pre>
     *
     * @param reason any text, or null
     * @param fallback a valid reason for when nothing of it is left
     * @return a valid reason
     */
    public static String reason(String reason, String fallback) {
        if (reason != null && reason.length() <= MAX_REASON && REASON.matcher(reason).matches()) {
            return reason;
        }
        StringBuilder camel = new StringBuilder();
        for (String word : (reason == null ? "" : reason).split("[^A-Za-z0-9_]+")) {
            if (!word.isEmpty()) {
                camel.append(Character.toUpperCase(word.charAt(0))).append(word, 1, word.length());
            }
        }
        String kept = camel.toString().replaceFirst("^[^A-Za-z]+", "").replaceFirst("_+$", "");
        kept = kept.length() > MAX_REASON ? kept.substring(0, MAX_REASON) : kept;
        return kept.isEmpty() ? fallback : kept;
    }

    /**
     * {@return whether the condition of this type is present and {@code True}}
     *
     * @param type the condition's type
     */
    public boolean isTrue(String type) {
        return find(type).map(condition -> TRUE.equals(condition.get("status"))).orElse(false);
    }

    /**
     * Removes the condition of this type.
     *
     * @param type the condition's type
     * @return whether it was there
     */
    public boolean remove(String type) {
        return conditions.removeIf(condition -> type.equals(condition.get("type"))) && written();
    }

    /** {@return the conditions as they are now, in order} */
    public List<Map<String, Object>> list() {
        return conditions.stream().map(StatusConditions::readOnly).toList();
    }

    private Optional<Map<String, Object>> find(String type) {
        return conditions.stream().filter(condition -> type.equals(condition.get("type"))).findFirst();
    }

    /** The whole list goes into the patch: a JSON merge patch replaces a list, it cannot change one element. */
    private boolean written() {
        changed = true;
        patch.status().put("conditions", conditions.stream().map(LinkedHashMap::new).toList());
        return true;
    }

    /** {@return whether this handler changed the conditions (and so the patch has them)} */
    public boolean changed() {
        return changed;
    }

    /** RFC 3339 at seconds, as {@code metav1.Time} serializes: a finer time would differ from what is read back. */
    private String now() {
        return Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** A read-only copy; stored conditions may hold nulls, which {@code Map.copyOf} refuses. */
    private static Map<String, Object> readOnly(Map<String, Object> condition) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(condition));
    }

    private static Long number(Object value) {
        return value instanceof Number number ? number.longValue() : null;
    }

    private static void checked(String type, String status, String reason) {
        if (type == null || type.length() > MAX_TYPE || !TYPE.matcher(type).matches()) {
            throw new IllegalArgumentException("condition type must be a qualified name of at most " + MAX_TYPE
                    + " characters (letters, digits, '-', '_', '.', an optional 'domain/' prefix), e.g. Ready, got '" + type + "'");
        }
        if (!TRUE.equals(status) && !FALSE.equals(status) && !UNKNOWN.equals(status)) {
            throw new IllegalArgumentException("condition " + type + ": status must be True, False or Unknown, got '" + status + "'");
        }
        if (reason == null || reason.length() > MAX_REASON || !REASON.matcher(reason).matches()) {
            throw new IllegalArgumentException("condition " + type + ": reason must be a CamelCase word of letters, digits,"
                    + " '_', ',' or ':' (at most " + MAX_REASON + "), e.g. ReplicasNotReady, got '" + reason + "'");
        }
    }
}
