package io.kopf4j;

import io.kopf4j.intents.ChangingHandler;
import io.kopf4j.intents.Filters;
import io.kopf4j.intents.HandlerRegistry;
import io.kopf4j.intents.ResourceSelector;
import io.kopf4j.intents.WatchingHandler;
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
    private enum Kind { CREATE, UPDATE, DELETE, RESUME, FIELD, EVENT }

    private final Builder spec;
    private final HandlerFn function;

    private Handler(Builder spec, HandlerFn function) {
        this.spec = spec;
        this.function = function;
    }

    public static Builder create(String... resource) {
        return new Builder(Kind.CREATE, resource);
    }

    public static Builder update(String... resource) {
        return new Builder(Kind.UPDATE, resource);
    }

    public static Builder delete(String... resource) {
        return new Builder(Kind.DELETE, resource);
    }

    public static Builder resume(String... resource) {
        return new Builder(Kind.RESUME, resource);
    }

    /** A field handler; set the field with {@link Builder#field(String)}. */
    public static Builder field(String... resource) {
        return new Builder(Kind.FIELD, resource);
    }

    public static Builder event(String... resource) {
        return new Builder(Kind.EVENT, resource);
    }

    /** Adds this handler to a registry; used by {@link Operator.Builder#handler(Handler...)}. */
    void registerIn(HandlerRegistry registry) {
        Builder b = spec;
        String origin = "'" + b.id + "' (" + b.kind.name().toLowerCase(java.util.Locale.ROOT) + " " + String.join("/", b.resource) + ")";
        String id = b.idWithField(b.id);
        Filters filters = b.filters();
        ResourceSelector selector;
        try {
            selector = ResourceSelector.parse(b.resource);
        } catch (IllegalArgumentException e) {
            throw new InvalidHandlerException("Handler " + origin + ": " + e.getMessage());
        }
        if (b.kind == Kind.EVENT) {
            registry.add(new WatchingHandler(id, b.param, filters, selector, function, origin));
            return;
        }
        Reason reason = switch (b.kind) {
            case CREATE -> Reason.CREATE;
            case UPDATE -> Reason.UPDATE;
            case DELETE -> Reason.DELETE;
            default -> null;
        };
        registry.add(new ChangingHandler(id, reason, b.kind == Kind.RESUME, b.deleted,
                b.kind == Kind.DELETE && !b.optional, b.fieldPath(), b.errors, b.timeout, b.retries, b.backoff, b.param,
                filters, selector, function, origin));
    }

    /** The options of one handler ({@link HandlerOptions}, and its id); {@link #handle(HandlerFn)} completes it. */
    public static final class Builder extends HandlerOptions<Builder> {
        private final Kind kind;
        private final String[] resource;
        private String id;
        private boolean optional;
        private boolean deleted;

        private Builder(Kind kind, String[] resource) {
            this.kind = kind;
            this.resource = resource.clone();
        }

        @Override
        String describe() {
            return "Handler for " + String.join("/", resource) + (id == null || id.isBlank() ? "" : " '" + id + "'");
        }

        /** The handler id (required): it names {@code status.<id>} and the progress record. */
        public Builder id(String handlerId) {
            this.id = handlerId;
            return this;
        }

        /** Delete handlers: best effort, no finalizer. */
        public Builder optional() {
            this.optional = true;
            return this;
        }

        /** Resume handlers: also for objects being deleted. */
        public Builder deleted() {
            this.deleted = true;
            return this;
        }

        /**
         * Completes the handler.
         *
         * @throws InvalidHandlerException if the options break Kopf's rules or the id is missing
         */
        public Handler handle(HandlerFn function) {
            if (id == null || id.isBlank()) {
                throw new InvalidHandlerException(describe() + ": handlers registered as functions need an id, e.g. .id(\"create\")");
            }
            checkFilters();
            if (kind == Kind.FIELD && field() == null) {
                throw new InvalidHandlerException(describe() + ": field handlers need a field");
            }
            return new Handler(this, Objects.requireNonNull(function, "function"));
        }
    }
}
