package io.kopf4j;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
    /** {@return the whole object as the API server last reported it} */
    Body body();

    /** {@return the object's {@code spec}} */
    default Spec spec() {
        return body().spec();
    }

    /** {@return the object's {@code metadata}} */
    default Meta meta() {
        return body().meta();
    }

    /** {@return the object's {@code status}} */
    default Status status() {
        return body().status();
    }

    /** {@return the object's name} */
    default String name() {
        return meta().name();
    }

    /** {@return the namespace, or null for a cluster-scoped object} */
    default String namespace() {
        return meta().namespace();
    }

    /** {@return the object's uid} */
    default String uid() {
        return meta().uid();
    }

    /** {@return the object's labels; empty if none} */
    default Map<String, String> labels() {
        return meta().labels();
    }

    /** {@return the object's annotations; empty if none} */
    default Map<String, String> annotations() {
        return meta().annotations();
    }

    /** {@return the changes to send to the object after the handler returns} */
    Patch patch();

    /** {@return a logger whose lines are prefixed with {@code [namespace/name]}} */
    Logger logger();

    /** {@return the resource as discovered: group, version, plural, kind and more} */
    Resource resource();

    /**
     * The operator's own Kubernetes client, for the handler's requests: logged in by the login
     * handlers (or Kopf's built-in logins), so it follows the operator's credentials through
     * re-logins, and retrying as {@code settings.networking.errorBackoffs} says. It is shared: do
     * not close it. Handlers may also declare it as a parameter: {@code KubernetesClient client}.
     *
     * <pre>{@code
     * @On.Create("kopfexamples")
     * void create(HandlerContext context) {
     *     context.client().configMaps().inNamespace(context.namespace()).resource(child).create();
     * }
     * }</pre>
     *
     * @return the client
     * @throws IllegalStateException where there is no operator behind the context (a test's own context)
     */
    default KubernetesClient client() {
        throw new IllegalStateException("this handler context has no Kubernetes client: "
                + "only the operator's contexts have one");
    }

    /**
     * The operator's index of this id ({@link Indexer}); handlers may also declare it as a parameter
     * named like the index: {@code Index<String, String> podsByApp}.
     *
     * <pre>{@code
     * Store<String> pods = context.<String, String>index("podsByApp").get("web");
     * }</pre>
     *
     * @param <K> the keys
     * @param <V> the values
     * @param id the index id (the indexing function's id)
     * @return the index, read-only and always current
     * @throws IllegalArgumentException if the operator has no such index
     * @throws IllegalStateException where there is no operator behind the context (a test's own context)
     */
    default <K, V> Index<K, V> index(String id) {
        throw new IllegalStateException("this handler context has no indexes: only the operator's contexts have them");
    }

    /**
     * Admission handlers: the request is a dry run, and the API server will not store the result
     * (Kopf's {@code dryrun}); handlers with side effects skip them then.
     *
     * @return false outside admission handlers
     */
    default boolean dryrun() {
        return false;
    }

    /**
     * Admission handlers: the warnings for the user who makes the request (Kopf's {@code warnings}),
     * a list to append to; {@code kubectl} prints them.
     *
     * <pre>{@code
     * @On.Validate("kopfexamples")
     * public void check(Spec spec, List<String> warnings) {
     *     if (spec.get("size") == null) warnings.add("No size given: 1 is assumed.");
     * }
     * }</pre>
     *
     * @return the request's warnings, shared by its handlers
     * @throws UnsupportedOperationException outside admission handlers
     */
    default List<String> warnings() {
        throw new UnsupportedOperationException("only admission handlers (validate, mutate) have warnings");
    }

    /**
     * Admission handlers: who makes the request ({@code username}, {@code uid}, {@code groups}; Kopf's
     * {@code userinfo}).
     *
     * @return the request's user info; empty outside admission handlers
     */
    default Map<String, Object> userinfo() {
        return Map.of();
    }

    /**
     * Admission handlers: the HTTP headers of the API server's request (Kopf's {@code headers}).
     *
     * @return the headers; empty outside admission handlers
     */
    default Map<String, String> headers() {
        return Map.of();
    }

    /**
     * Admission handlers: the API server's TLS client certificate, if it sent one (Kopf's {@code sslpeer}).
     *
     * @return the certificate's fields; empty without one, and outside admission handlers
     */
    default Map<String, Object> sslpeer() {
        return Map.of();
    }

    /**
     * Admission handlers: the operation under check: {@code CREATE}, {@code UPDATE}, {@code DELETE} or
     * {@code CONNECT} (Kopf's {@code operation}).
     *
     * @return the operation; null outside admission handlers
     */
    default String operation() {
        return null;
    }

    /**
     * Admission handlers: the subresource under check ({@code status}, {@code scale}, ...), or null for
     * the main resource (Kopf's {@code subresource}).
     *
     * @return the subresource, or null
     */
    default String subresource() {
        return null;
    }

    /**
     * The stop flag of a daemon or timer (Kopf's {@code stopped}): see {@link DaemonStopped}.
     *
     * @return the flag
     * @throws UnsupportedOperationException outside daemons and timers
     */
    default DaemonStopped stopped() {
        throw new UnsupportedOperationException("only daemons and timers have a stop flag");
    }

    /** {@return the handler's {@code param}, as declared with it; null if none} */
    Object param();

    /** {@return the per-object memo: in-memory state across this object's handler calls} */
    Memo memo();

    /** {@return why changing handlers are called; null for event handlers, daemons and timers} */
    Reason reason();

    /** {@return the essential difference from the last handled state (relative to the field for field handlers)} */
    Diff diff();

    /** {@return the last handled essence (or field value); null on creation} */
    Object old();

    /** {@return the current essence (or field value): no status, no system metadata} */
    Object current();

    /** {@return the attempt number, from 0} */
    int retry();

    /** {@return when the first attempt of this handler for this change started} */
    Instant started();

    /** {@return how long since the first attempt started} */
    default Duration runtime() {
        return started() == null ? Duration.ZERO : Duration.between(started(), Instant.now());
    }

    /** {@return for event handlers: {@code ADDED}, {@code MODIFIED}, {@code DELETED}, or null for the initial listing} */
    String type();

    /** {@return for event handlers: the raw event, {@code {"type": ..., "object": ...}}; null otherwise} */
    Map<String, Object> event();

    /**
     * Posts a Kubernetes Event about this object (Kopf's {@code kopf.event(body, ...)}): see
     * {@link #event(Object, String, String, String)}.
     *
     * @param type e.g. {@code Normal} or {@code Warning}
     * @param reason a short CamelCase cause, e.g. {@code "Created"}
     * @param message the human-readable text, e.g. {@code "Created the children"}
     */
    default void event(String type, String reason, String message) {
        event(body(), type, reason, message);
    }

    /**
     * A {@code Normal} event about this object (Kopf's {@code kopf.info(body, ...)}): see
     * {@link #info(Object, String, String)}.
     *
     * @param reason a short CamelCase cause, e.g. {@code "Created"}
     * @param message the human-readable text, e.g. {@code "Created the children"}
     */
    default void info(String reason, String message) {
        info(body(), reason, message);
    }

    /**
     * A {@code Warning} event about this object (Kopf's {@code kopf.warn(body, ...)}): see
     * {@link #warn(Object, String, String)}.
     *
     * @param reason a short CamelCase cause, e.g. {@code "Degraded"}
     * @param message the human-readable text, e.g. {@code "2 of 3 replicas are ready"}
     */
    default void warn(String reason, String message) {
        warn(body(), reason, message);
    }

    /**
     * An {@code Error} event about this object and an exception (Kopf's {@code kopf.exception(body, ...)}):
     * see {@link #exception(Object, String, String, Throwable)}.
     *
     * @param reason a short CamelCase cause; empty for the exception's class name
     * @param message the text before the exception's message, e.g. {@code "Provisioning failed:"}
     * @param error the exception the event reports
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
     * @param type e.g. {@code Normal} or {@code Warning}
     * @param reason a short CamelCase cause, e.g. {@code "Created"}
     * @param message the human-readable text, e.g. {@code "Created the children"}
     */
    default void event(Object objects, String type, String reason, String message) {
        events().event(objects, type, reason, message);
    }

    /**
     * A {@code Normal} event about the objects if {@code settings.posting.level} is INFO or lower, as
     * {@link Events#info}.
     *
     * @param objects a {@link Body} or {@code Map}, a fabric8 {@code HasMetadata}, or an iterable of them
     * @param reason a short CamelCase cause, e.g. {@code "Created"}
     * @param message the human-readable text, e.g. {@code "Created the children"}
     */
    default void info(Object objects, String reason, String message) {
        events().info(objects, reason, message);
    }

    /**
     * A {@code Warning} event about the objects if {@code settings.posting.level} is WARN or lower, as
     * {@link Events#warn}.
     *
     * @param objects a {@link Body} or {@code Map}, a fabric8 {@code HasMetadata}, or an iterable of them
     * @param reason a short CamelCase cause, e.g. {@code "Degraded"}
     * @param message the human-readable text, e.g. {@code "2 of 3 replicas are ready"}
     */
    default void warn(Object objects, String reason, String message) {
        events().warn(objects, reason, message);
    }

    /**
     * An {@code Error} event about the objects and an exception if {@code settings.posting.level} is
     * ERROR or lower, as {@link Events#exception}: the reason defaults to the exception's class.
     *
     * @param objects a {@link Body} or {@code Map}, a fabric8 {@code HasMetadata}, or an iterable of them
     * @param reason a short CamelCase cause; empty for the exception's class name
     * @param message the text before the exception's message, e.g. {@code "Provisioning failed:"}
     * @param error the exception the event reports
     */
    default void exception(Object objects, String reason, String message, Throwable error) {
        events().exception(objects, reason, message, error);
    }

    /**
     * Where this handler's Kubernetes Events go: the operator's poster (kopf4j's own contexts give
     * it); every posting method of the context and of {@link Events} ends here. A context of a
     * test's own may give one that records them; by default each is logged to {@link #logger()}.
     *
     * @return the poster of this handler's Kubernetes Events
     */
    default KubernetesEvents events() {
        return KubernetesEvents.loggedTo(logger());
    }

    /**
     * Registers a sub-handler (Kopf's {@code kopf.register}) with the id {@code <this id>/<id>} and no
     * options: the same as {@code register(SubHandler.id(id).handle(handler))}.
     *
     * @param id the sub-handler's id, unique within this handler, e.g. {@code "volume"}
     * @param handler what the sub-handler does; its result goes to {@code status.<this id>/<id>}
     * @throws UnsupportedOperationException outside changing handlers
     */
    default void register(String id, HandlerFn handler) {
        register(SubHandler.id(id).handle(handler));
    }

    /**
     * Registers a sub-handler (Kopf's {@code @kopf.subhandler}), run after this handler returns (or
     * at {@link #execute()}) with the id {@code <this id>/<id>}, its own options and its own
     * progress record. This handler counts as finished only when all its sub-handlers are; until
     * then it is called again in each cycle, so it must register the same sub-handlers each time and
     * have no other side effects (or put them after {@link #execute()}).
     *
     * <pre>{@code
     * @On.Create("kopfexamples")
     * void create(Spec spec, HandlerContext context) {
     *     for (Object item : (List<?>) spec.get("items")) {
     *         context.register(SubHandler.id("item-" + item).retries(3).backoff(Duration.ofSeconds(5))
     *                 .handle(child -> provision(item)));
     *     }
     * }
     * }</pre>
     *
     * @param subhandler the sub-handler: its id (unique within this handler), options and function
     * @throws UnsupportedOperationException outside changing handlers
     */
    default void register(SubHandler subhandler) {
        throw new UnsupportedOperationException("sub-handlers can be registered only from create, update, delete,"
                + " resume and field handlers");
    }

    /**
     * Runs the registered sub-handlers now (Kopf's {@code kopf.execute()} without arguments) instead
     * of after this handler returns, so that the code after it runs only when they all have
     * succeeded. While some are unfinished, it throws a {@link TemporaryError} that retries this
     * handler when the earliest of them is due: let it pass.
     *
     * @throws TemporaryError while some sub-handlers are unfinished
     * @throws UnsupportedOperationException outside changing handlers
     */
    default void execute() {
        throw new UnsupportedOperationException("sub-handlers can be executed only from create, update, delete,"
                + " resume and field handlers");
    }

    /**
     * Runs sub-handlers given as functions by id (Kopf's {@code kopf.execute(fns={...})}), each with
     * the id {@code <this id>/<id>} and its own progress record; returns when they all have finished.
     *
     * <pre>{@code
     * @On.Create("kopfexamples")
     * void create(HandlerContext context) {
     *     context.execute(Map.of(
     *             "volume", volume -> createVolume(volume.spec()),
     *             "service", service -> createService(service.spec())));
     *     context.logger().info("all created");   // reached only when both have succeeded
     * }
     * }</pre>
     *
     * @param functions the sub-handlers' functions by their ids, e.g. {@code Map.of("volume", fn)}
     * @throws TemporaryError while some are unfinished: it retries this handler when the earliest is due
     * @throws UnsupportedOperationException outside changing handlers
     */
    default void execute(Map<String, HandlerFn> functions) {
        List<SubHandler> subhandlers = new ArrayList<>();
        functions.forEach((id, function) -> subhandlers.add(SubHandler.id(id).handle(function)));
        execute(subhandlers);
    }

    /**
     * Runs sub-handlers with their options (Kopf's {@code kopf.execute(handlers=[...])}), each with
     * the id {@code <this id>/<id>} and its own progress record; returns when they all have finished.
     *
     * <pre>{@code
     * context.execute(List.of(
     *         SubHandler.id("volume").retries(5).handle(volume -> createVolume(volume.spec())),
     *         SubHandler.id("backup").label("backup", "enabled").errors(ErrorsMode.IGNORED)
     *                 .handle(backup -> scheduleBackup(backup.name()))));
     * }</pre>
     *
     * @param subhandlers the sub-handlers, each with an id unique within this handler
     * @throws TemporaryError while some are unfinished: it retries this handler when the earliest is due
     * @throws UnsupportedOperationException outside changing handlers
     */
    default void execute(List<SubHandler> subhandlers) {
        throw new UnsupportedOperationException("sub-handlers can be executed only from create, update, delete,"
                + " resume and field handlers");
    }
}
