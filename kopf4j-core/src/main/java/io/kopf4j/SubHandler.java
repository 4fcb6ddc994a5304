package io.kopf4j;

import io.kopf4j.intents.ChangingHandler;
import io.kopf4j.intents.HandlerKind;
import io.kopf4j.intents.HandlerSpec;
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
    private final HandlerSpec spec;
    private final HandlerFn function;

    private SubHandler(HandlerSpec spec, HandlerFn function) {
        this.spec = spec;
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

    /**
     * The sub-handler as kopf4j runs it under its parent: the parent's id as a prefix, and the
     * parent's reason, resume and field rules, so that it runs for whatever cause the parent runs.
     * Used by kopf4j's execution, not by handlers.
     *
     * @param parent the handler that registered it
     * @return the handler that kopf4j runs, with the id {@code <parent id>/<id>}
     */
    public ChangingHandler under(ChangingHandler parent) {
        return spec.under(parent, function);
    }

    /** The options of one sub-handler ({@link HandlerOptions}); {@link #handle(HandlerFn)} completes it. */
    public static final class Builder extends HandlerOptions<Builder> {
        private Builder(String id) {
            super(HandlerSpec.function(HandlerKind.SUBHANDLER));
            spec.id(id);
        }

        /**
         * Completes the sub-handler.
         *
         * @param function what the sub-handler does; its result goes to {@code status.<parent id>/<id>}
         * @return the sub-handler, for {@link HandlerContext#register(SubHandler)} or
         *     {@link HandlerContext#execute(java.util.List)}
         * @throws InvalidHandlerException if the filters break Kopf's rules
         */
        public SubHandler handle(HandlerFn function) {
            spec.validate();
            return new SubHandler(spec, Objects.requireNonNull(function, "function"));
        }
    }
}
