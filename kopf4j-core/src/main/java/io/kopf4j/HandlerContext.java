package io.kopf4j;

import java.util.Map;
import org.slf4j.Logger;

/**
 * Everything a resource handler can ask for, in one parameter. Handlers usually declare only the
 * parts they need ({@code Spec spec, String name, Logger logger}); this is for handlers that want
 * all of it, and for lambdas.
 *
 * <pre>{@code
 * @On.Create("kopfexamples")
 * void create(HandlerContext context) {
 *     context.logger().info("{} in {}", context.name(), context.namespace());
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

    Reason reason();

    Resource resource();

    /** The essential difference from the last handled state. */
    Diff diff();

    /** The last handled essence; null on creation. */
    Map<String, Object> old();

    /** The current essence (not the whole body: no status, no system metadata). */
    Map<String, Object> current();
}
