package io.kopf4j;

import io.kopf4j.intents.HandlerKind;
import io.kopf4j.intents.HandlerRegistry;
import io.kopf4j.intents.HandlerSpec;
import java.util.Objects;

/**
 * A handler registered without annotations: for lambdas, for handlers built at run time, and for
 * tests. The same kinds and options as the {@link On} annotations; filters may be predicates.
 * Lambda handlers need an explicit {@link Builder#id(String) id}: it names their progress records
 * on the objects, so it must stay the same across restarts.
 *
 * <pre>{@code
 * Operator.builder()
 *     .handler(Handler.create("kopfexamples").id("create").handle(context -> Map.of("message", "hi")))
 *     .handler(Handler.update("kopfexamples").id("resize").field("spec.size")
 *             .label("app", "web").retries(3).handle(context -> resize(context.current())))
 *     .build();
 * }</pre>
 */
public final class Handler {
    private final HandlerSpec spec;
    private final HandlerFn function;

    private Handler(HandlerSpec spec, HandlerFn function) {
        this.spec = spec;
        this.function = function;
    }

    /**
     * A handler for objects created, or first seen without a record of an earlier handling
     * (Kopf's {@code @kopf.on.create}).
     *
     * @param resource the resource selector, as in the {@link On} annotations: {@code "kopfexamples"},
     *        {@code "kopfexamples.kopf.dev"}, or group, version and plural
     * @return the builder of the handler's options
     */
    public static Builder create(String... resource) {
        return new Builder(HandlerKind.CREATE, resource);
    }

    /**
     * A handler for changes of the objects' essence: spec, labels, annotations; not status
     * (Kopf's {@code @kopf.on.update}).
     *
     * @param resource the resource selector, as in the {@link On} annotations: {@code "kopfexamples"},
     *        {@code "kopfexamples.kopf.dev"}, or group, version and plural
     * @return the builder of the handler's options
     */
    public static Builder update(String... resource) {
        return new Builder(HandlerKind.UPDATE, resource);
    }

    /**
     * A handler for objects being deleted (Kopf's {@code @kopf.on.delete}): a finalizer holds
     * the deletion until it succeeds, unless {@link Builder#optional() optional}.
     *
     * @param resource the resource selector, as in the {@link On} annotations: {@code "kopfexamples"},
     *        {@code "kopfexamples.kopf.dev"}, or group, version and plural
     * @return the builder of the handler's options
     */
    public static Builder delete(String... resource) {
        return new Builder(HandlerKind.DELETE, resource);
    }

    /**
     * A handler for objects that exist when the operator starts, once per object per process
     * (Kopf's {@code @kopf.on.resume}).
     *
     * @param resource the resource selector, as in the {@link On} annotations: {@code "kopfexamples"},
     *        {@code "kopfexamples.kopf.dev"}, or group, version and plural
     * @return the builder of the handler's options
     */
    public static Builder resume(String... resource) {
        return new Builder(HandlerKind.RESUME, resource);
    }

    /**
     * A handler for the changes of one field, set with {@link Builder#field(String)} (Kopf's
     * {@code @kopf.on.field}).
     *
     * @param resource the resource selector, as in the {@link On} annotations: {@code "kopfexamples"},
     *        {@code "kopfexamples.kopf.dev"}, or group, version and plural
     * @return the builder of the handler's options
     */
    public static Builder field(String... resource) {
        return new Builder(HandlerKind.FIELD, resource);
    }

    /**
     * A handler for every raw watch event of the objects (Kopf's {@code @kopf.on.event}): no
     * progress, no retries; its exceptions are logged and ignored.
     *
     * @param resource the resource selector, as in the {@link On} annotations: {@code "kopfexamples"},
     *        {@code "kopfexamples.kopf.dev"}, or group, version and plural
     * @return the builder of the handler's options
     */
    public static Builder event(String... resource) {
        return new Builder(HandlerKind.EVENT, resource);
    }

    /** Adds this handler to a registry; used by {@link Operator.Builder#handler(Handler...)}. */
    void registerIn(HandlerRegistry registry) {
        spec.register(function, registry);
    }

    /** The options of one handler ({@link HandlerOptions}, and its id); {@link #handle(HandlerFn)} completes it. */
    public static final class Builder extends HandlerOptions<Builder> {
        private Builder(HandlerKind kind, String[] resource) {
            super(HandlerSpec.function(kind, resource));
        }

        /**
         * The handler id (required): it names {@code status.<id>} and the progress record, so it must
         * stay the same across restarts.
         *
         * @param handlerId the id, e.g. {@code "create"}
         * @return this builder
         */
        public Builder id(String handlerId) {
            spec.id(handlerId);
            return this;
        }

        /**
         * Delete handlers: best effort, without a finalizer, so the object may be gone before the
         * handler runs.
         *
         * @return this builder
         */
        public Builder optional() {
            spec.optional(true);
            return this;
        }

        /**
         * Resume handlers: also for objects that are already being deleted.
         *
         * @return this builder
         */
        public Builder deleted() {
            spec.deleted(true);
            return this;
        }

        /**
         * Completes the handler.
         *
         * @param function what the handler does; its result goes to {@code status.<id>}
         * @return the handler, for {@link Operator.Builder#handler(Handler...)}
         * @throws InvalidHandlerException if the options break Kopf's rules or the id is missing
         */
        public Handler handle(HandlerFn function) {
            spec.validate();
            return new Handler(spec, Objects.requireNonNull(function, "function"));
        }
    }
}
