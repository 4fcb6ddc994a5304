package io.kopf4j;


/**
 * Kubernetes Events about any objects, posted from resource handlers: Kopf's {@code kopf.event},
 * {@code kopf.info}, {@code kopf.warn} and {@code kopf.exception}. Events are queued and posted in
 * the background, never blocking the handler; nothing is posted if {@code settings.posting.enabled}
 * is off.
 *
 * <p>The objects are given as a {@link Body} or any {@code Map} body, as a map that is already an
 * object reference (e.g. an owner reference: {@code apiVersion}, {@code kind}, {@code name},
 * {@code uid}, {@code namespace} at the top), as a fabric8 object ({@code HasMetadata}), or as an
 * {@code Iterable} or array of them: one event for each. Events of cluster-scoped objects go to
 * the credentials' default namespace ({@code default} if none).
 *
 * <pre>{@code
 * @On.Create("kopfexamples")
 * void create(Body body, String namespace, String name) {
 *     Events.event(body, "SomeType", "SomeReason", "Some message");
 *     Events.info(body, "SomeReason", "Some message");
 *     Events.warn(body, "SomeReason", "Some message");
 *     try {
 *         throw new IllegalStateException("Exception text.");
 *     } catch (IllegalStateException e) {
 *         Events.exception(body, "SomeReason", "Some exception:", e);
 *     }
 *     ConfigMap config = client.configMaps().inNamespace(namespace).resource(configMap).create();  // your client
 *     Events.info(config, "SomeReason", "This config map is created by KopfExample " + name);
 * }
 * }</pre>
 *
 * <p>These static methods find the operator through the thread that runs the handler. In other
 * threads (e.g. in a {@code CompletableFuture} the handler returns), use the same methods of the
 * handler's {@link HandlerContext}, which work anywhere: {@code context.info(config, reason, message)}.
 */
public final class Events {
    private Events() {
    }

    /**
     * An event of any type (Kopf's {@code kopf.event}), posted whatever {@code settings.posting.level}.
     *
     * @param objects the object(s) the event is about (see above)
     * @param type e.g. {@code Normal} or {@code Warning}
     * @param reason a short CamelCase cause, e.g. {@code "Created"}
     * @param message the human-readable text, e.g. {@code "Created the children"}
     * @throws IllegalStateException outside the thread of a resource handler
     */
    public static void event(Object objects, String type, String reason, String message) {
        runningHandler().events().event(objects, type, reason, message);
    }

    /**
     * A {@code Normal} event (Kopf's {@code kopf.info}), posted only if {@code settings.posting.level}
     * is {@code INFO} or lower.
     *
     * @param objects the object(s) the event is about (see above)
     * @param reason a short CamelCase cause, e.g. {@code "Created"}
     * @param message the human-readable text, e.g. {@code "Created the children"}
     * @throws IllegalStateException outside the thread of a resource handler
     */
    public static void info(Object objects, String reason, String message) {
        runningHandler().events().info(objects, reason, message);
    }

    /**
     * A {@code Warning} event (Kopf's {@code kopf.warn}), posted only if {@code settings.posting.level}
     * is {@code WARN} or lower.
     *
     * @param objects the object(s) the event is about (see above)
     * @param reason a short CamelCase cause, e.g. {@code "Degraded"}
     * @param message the human-readable text, e.g. {@code "2 of 3 replicas are ready"}
     * @throws IllegalStateException outside the thread of a resource handler
     */
    public static void warn(Object objects, String reason, String message) {
        runningHandler().events().warn(objects, reason, message);
    }

    /**
     * An {@code Error} event about an exception (Kopf's {@code kopf.exception}), posted only if
     * {@code settings.posting.level} is {@code ERROR} or lower. An empty reason becomes the
     * exception's class name; the exception's message follows the message.
     *
     * @param objects the object(s) the event is about (see above)
     * @param reason a short CamelCase cause; empty for the exception's class name
     * @param message the text before the exception's message, e.g. {@code "Provisioning failed:"}
     * @param error the exception the event reports
     * @throws IllegalStateException outside the thread of a resource handler
     */
    public static void exception(Object objects, String reason, String message, Throwable error) {
        runningHandler().events().exception(objects, reason, message, error);
    }

    /**
     * The context of the handler on this thread, which posts through its operator's poster, as
     * Kopf's context variables give {@code kopf.event} its queue.
     */
    private static HandlerContext runningHandler() {
        return RunningHandler.current().orElseThrow(() -> new IllegalStateException(
                "Events can be posted with io.kopf4j.Events only from a resource handler,"
                + " on the thread that runs it; elsewhere (e.g. in asynchronous code), use the handler's"
                + " HandlerContext: context.event(...), context.info(...), context.warn(...), context.exception(...)"));
    }
}
