package io.kopf4j;

/**
 * A predicate on a handler's context, for {@code when = ...} in handler annotations: the handler
 * runs only if every filter holds. Implementations need a public no-argument constructor.
 *
 * <pre>{@code
 * public static class IsProduction implements Filter {
 *     public boolean test(HandlerContext context) { return "prod".equals(context.labels().get("env")); }
 * }
 *
 * @On.Update(value = "kopfexamples", when = IsProduction.class)
 * void update(Diff diff) { ... }
 * }</pre>
 */
@FunctionalInterface
public interface Filter {
    /**
     * Decides whether the handler runs.
     *
     * @param context the handler's context
     * @return true to run the handler
     */
    boolean test(HandlerContext context);

    /** The field must be there, with any value. */
    String PRESENT = "<present>";
    /** The field must not be there. */
    String ABSENT = "<absent>";
}
