package io.kopf4j;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.slf4j.Logger;

/**
 * Everything a resource handler can ask for, in one parameter. Handlers usually declare only the
 * parts they need ({@code Spec spec, String name, Logger logger}); this is for handlers that want
 * all of it, and for lambdas.
 *
 * <pre>{@code
 * @On.Update("kopfexamples")
 * void update(HandlerContext context) {
 *     context.logger().info("{} changed: {} (attempt {})", context.name(), context.diff(), context.retry());
 * }
 * }</pre>
 */
public interface HandlerContext {
    Body body();

    default Spec spec() {
        return body().spec();
    }

    default Meta meta() {
        return body().meta();
    }

    default Status status() {
        return body().status();
    }

    default String name() {
        return meta().name();
    }

    /** The namespace, or null for a cluster-scoped object. */
    default String namespace() {
        return meta().namespace();
    }

    default String uid() {
        return meta().uid();
    }

    default Map<String, String> labels() {
        return meta().labels();
    }

    default Map<String, String> annotations() {
        return meta().annotations();
    }

    /** Changes to send to the object after the handler returns. */
    Patch patch();

    /** A logger whose lines are prefixed with {@code [namespace/name]}. */
    Logger logger();

    /** The resource as discovered: group, version, plural, kind, ... */
    Resource resource();

    /** The handler's {@code param}, as declared with it; null if none. */
    Object param();

    /** The per-object memo: in-memory state across this object's handler calls. */
    Memo memo();

    /** Why changing handlers are called; null for event handlers. */
    Reason reason();

    /** The essential difference from the last handled state (relative to the field for field handlers). */
    Diff diff();

    /** The last handled essence (or field value); null on creation. */
    Object old();

    /** The current essence (or field value): no status, no system metadata. */
    Object current();

    /** The attempt number, from 0. */
    int retry();

    /** When the first attempt of this handler for this change started. */
    Instant started();

    /** How long since the first attempt started. */
    default Duration runtime() {
        return started() == null ? Duration.ZERO : Duration.between(started(), Instant.now());
    }

    /** For event handlers: {@code ADDED}, {@code MODIFIED}, {@code DELETED}, or null for the initial listing. */
    String type();

    /** For event handlers: the raw event, {@code {"type": ..., "object": ...}}; null otherwise. */
    Map<String, Object> event();

    /**
     * Posts a Kubernetes Event about this object (Kopf's {@code kopf.event(body, ...)}): see
     * {@link #event(Object, String, String, String)}.
     *
     * @param type e.g. {@code Normal} or {@code Warning}
     */
    default void event(String type, String reason, String message) {
        event(body(), type, reason, message);
    }

    /** A {@code Normal} event about this object (Kopf's {@code kopf.info(body, ...)}): see {@link #info(Object, String, String)}. */
    default void info(String reason, String message) {
        info(body(), reason, message);
    }

    /** A {@code Warning} event about this object (Kopf's {@code kopf.warn(body, ...)}): see {@link #warn(Object, String, String)}. */
    default void warn(String reason, String message) {
        warn(body(), reason, message);
    }

    /**
     * An {@code Error} event about this object and an exception (Kopf's {@code kopf.exception(body, ...)}):
     * see {@link #exception(Object, String, String, Throwable)}.
     */
    default void exception(String reason, String message, Throwable error) {
        exception(body(), reason, message, error);
    }

    /**
     * Posts a Kubernetes Event about one or many objects, this one or others, as {@link Events#event}
     * (Kopf's {@code kopf.event}) does, whatever {@code settings.posting.level}; unlike {@link Events},
     * also from other threads than the handler's.
     *
     * <pre>{@code
     * @On.Create("kopfexamples")
     * CompletableFuture<Void> create(HandlerContext context) {
     *     return CompletableFuture.runAsync(() -> {
     *         List<ConfigMap> children = createChildren();   // your own code
     *         context.event(children, "Normal", "Created", "By KopfExample " + context.name());
     *     });
     * }
     * }</pre>
     *
     * @param objects a {@link Body} or {@code Map}, a fabric8 {@code HasMetadata}, or an iterable of them
     */
    default void event(Object objects, String type, String reason, String message) {
        Events.event(objects, type, reason, message);
    }

    /** A {@code Normal} event about the objects if {@code settings.posting.level} is INFO or lower, as {@link Events#info}. */
    default void info(Object objects, String reason, String message) {
        Events.info(objects, reason, message);
    }

    /** A {@code Warning} event about the objects if {@code settings.posting.level} is WARN or lower, as {@link Events#warn}. */
    default void warn(Object objects, String reason, String message) {
        Events.warn(objects, reason, message);
    }

    /**
     * An {@code Error} event about the objects and an exception if {@code settings.posting.level} is
     * ERROR or lower, as {@link Events#exception}: the reason defaults to the exception's class.
     */
    default void exception(Object objects, String reason, String message, Throwable error) {
        Events.exception(objects, reason, message, error);
    }

    /**
     * Registers a sub-handler (Kopf's {@code kopf.register}), run after this handler returns with
     * the id {@code <this id>/<id>} and its own progress. This handler counts as finished only when
     * all its sub-handlers are; until then it is called again in each cycle, so it must register
     * the same sub-handlers each time and have no other side effects.
     *
     * <pre>{@code
     * @On.Create("kopfexamples")
     * void create(Spec spec, HandlerContext context) {
     *     for (Object item : (List<?>) spec.get("items")) {
     *         context.register("item-" + item, child -> provision(item));
     *     }
     * }
     * }</pre>
     *
     * @throws UnsupportedOperationException outside changing handlers
     */
    default void register(String id, HandlerFn handler) {
        throw new UnsupportedOperationException("sub-handlers can be registered only from create, update, delete,"
                + " resume and field handlers");
    }
}
