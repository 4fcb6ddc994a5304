package io.kopf4j;

import io.kopf4j.HandlerDescription.Option;
import java.util.Objects;

/**
 * A sub-handler with its options (Kopf's {@code @kopf.subhandler}): registered from a changing
 * handler with {@link HandlerContext#register(SubHandler)}, or run at once with
 * {@link HandlerContext#execute(java.util.List)}. It gets the id {@code <parent id>/<id>} (plus
 * {@code /<field>} with a field), its own progress record, and the same options and filters as
 * {@link Handler}: errors, timeout, retries, backoff, param, labels, annotations, field, value, old,
 * current, when. It runs for the parent's cause, whatever its reason.
 *
 * <pre>{@code
 * @On.Update("kopfexamples")
 * void update(Spec spec, HandlerContext context) {
 *     context.register(SubHandler.id("resize").field("spec.size").retries(3).handle(child -> resize(child.current())));
 *     context.register(SubHandler.id("relabel").annotationPresent("example.com/relabel")
 *             .errors(ErrorsMode.IGNORED).handle(child -> relabel(child.labels())));
 * }
 * }</pre>
 */
public final class SubHandler {
    private final HandlerDescription description;
    private final HandlerFn function;

    private SubHandler(HandlerDescription description, HandlerFn function) {
        this.description = description;
        this.function = function;
    }

    /**
     * Starts a sub-handler with this id, unique among the parent's sub-handlers.
     *
     * @param id the id, e.g. {@code "volume"}; the sub-handler's full id is {@code <parent id>/<id>}
     * @return the builder of its options
     */
    public static Builder id(String id) {
        return new Builder(id);
    }

    /** {@return what the builder declared: kopf4j checks it and makes the handler when it is registered} */
    public HandlerDescription description() {
        return description;
    }

    /** {@return what the sub-handler does} */
    public HandlerFn function() {
        return function;
    }

    /** The options of one sub-handler ({@link HandlerOptions}); {@link #handle(HandlerFn)} completes it. */
    public static final class Builder extends HandlerOptions<Builder> {
        private Builder(String id) {
            super(HandlerKind.SUBHANDLER);
            add(new Option.Id(id));
        }

        /**
         * Completes the sub-handler.
         *
         * @param function what the sub-handler does; its result goes to {@code status.<parent id>/<id>}
         * @return the sub-handler, for {@link HandlerContext#register(SubHandler)} or
         *     {@link HandlerContext#execute(java.util.List)}, which check its options
         */
        public SubHandler handle(HandlerFn function) {
            return new SubHandler(describe(), Objects.requireNonNull(function, "function"));
        }
    }
}
