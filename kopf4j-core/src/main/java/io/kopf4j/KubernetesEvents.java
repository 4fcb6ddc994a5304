package io.kopf4j;

import org.slf4j.Logger;

/**
 * Where a handler's Kubernetes Events go (Kopf's {@code kopf.event}, {@code kopf.info},
 * {@code kopf.warn}, {@code kopf.exception}): the operator's poster in a running operator,
 * reached through {@link HandlerContext#events()} and {@link Events}. Both end here, so a context
 * of a test's own posts through the poster it gives, or logs what would be posted if it gives none.
 *
 * <pre>{@code
 * List<String> posted = new ArrayList<>();
 * HandlerContext context = new MyTestContext() {
 *     public KubernetesEvents events() {
 *         return (objects, type, reason, message) -> posted.add(type + " " + reason + ": " + message);
 *     }
 * };
 * RunningHandler.call(c -> { handlers.create(c); return null; }, context);   // Events.info(...) lands in posted
 * }</pre>
 */
@FunctionalInterface
public interface KubernetesEvents {
    /**
     * An event of any type about the objects, whatever {@code settings.posting.level}.
     *
     * @param objects a {@link Body} or {@code Map}, a fabric8 {@code HasMetadata}, or an iterable or array of them
     * @param type e.g. {@code Normal} or {@code Warning}
     * @param reason a short CamelCase cause, e.g. {@code "Created"}
     * @param message the human-readable text, e.g. {@code "Created the children"}
     */
    void event(Object objects, String type, String reason, String message);

    /**
     * A {@code Normal} event about the objects (the operator's poster: if {@code settings.posting.level} is INFO or lower).
     *
     * @param objects a {@link Body} or {@code Map}, a fabric8 {@code HasMetadata}, or an iterable or array of them
     * @param reason a short CamelCase cause, e.g. {@code "Created"}
     * @param message the human-readable text, e.g. {@code "Created the children"}
     */
    default void info(Object objects, String reason, String message) {
        event(objects, "Normal", reason, message);
    }

    /**
     * A {@code Warning} event about the objects (the operator's poster: if {@code settings.posting.level} is WARN or lower).
     *
     * @param objects a {@link Body} or {@code Map}, a fabric8 {@code HasMetadata}, or an iterable or array of them
     * @param reason a short CamelCase cause, e.g. {@code "Degraded"}
     * @param message the human-readable text, e.g. {@code "2 of 3 replicas are ready"}
     */
    default void warn(Object objects, String reason, String message) {
        event(objects, "Warning", reason, message);
    }

    /**
     * An {@code Error} event about the objects and an exception (the operator's poster: if
     * {@code settings.posting.level} is ERROR or lower): an empty reason becomes the exception's class
     * name, and the exception's message follows the message.
     *
     * @param objects a {@link Body} or {@code Map}, a fabric8 {@code HasMetadata}, or an iterable or array of them
     * @param reason a short CamelCase cause; empty for the exception's class name
     * @param message the text before the exception's message, e.g. {@code "Provisioning failed:"}
     * @param error the exception the event reports
     */
    default void exception(Object objects, String reason, String message, Throwable error) {
        String text = error.getMessage() == null ? "" : error.getMessage();
        event(objects, "Error", reason == null || reason.isEmpty() ? error.getClass().getSimpleName() : reason,
                message == null || message.isEmpty() ? text : message + " " + text);
    }

    /**
     * No poster: each event is logged at INFO on the handler's logger instead (a context of a test's
     * own that gives none).
     *
     * @param logger the handler's logger
     * @return what logs each event instead of posting it
     */
    static KubernetesEvents loggedTo(Logger logger) {
        return (objects, type, reason, message) -> logger.info("Not posted (no poster in this context): {} {}: {}",
                type, reason, message);
    }
}
