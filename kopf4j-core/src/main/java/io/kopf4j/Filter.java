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
    boolean test(HandlerContext context);

    /** Special values for {@code fieldValue}, {@code oldValue}, {@code newValue} in annotations. */
    String PRESENT = "<present>";
    String ABSENT = "<absent>";
}
