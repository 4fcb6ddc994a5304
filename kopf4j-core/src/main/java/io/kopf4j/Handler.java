package io.kopf4j;

import io.kopf4j.intents.ChangingHandler;
import io.kopf4j.intents.Condition;
import io.kopf4j.intents.Filters;
import io.kopf4j.intents.HandlerRegistry;
import io.kopf4j.intents.ResourceSelector;
import io.kopf4j.intents.WatchingHandler;
import io.kopf4j.structs.Dicts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

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

    /**
     * A handler for objects created, or first seen without a record of an earlier handling
     * (Kopf's {@code @kopf.on.create}).
     *
     * @param resource the resource selector, as in the {@link On} annotations: {@code "kopfexamples"},
     *        {@code "kopfexamples.kopf.dev"}, or group, version and plural
     * @return the builder of the handler's options
     */
    public static Builder create(String... resource) {
        return new Builder(Kind.CREATE, resource);
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
        return new Builder(Kind.UPDATE, resource);
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
        return new Builder(Kind.DELETE, resource);
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
        return new Builder(Kind.RESUME, resource);
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
        return new Builder(Kind.FIELD, resource);
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
        return new Builder(Kind.EVENT, resource);
    }

    /** Adds this handler to a registry; used by {@link Operator.Builder#handler(Handler...)}. */
    void registerIn(HandlerRegistry registry) {
        Builder b = spec;
        String origin = "'" + b.id + "' (" + b.kind.name().toLowerCase(java.util.Locale.ROOT) + " " + String.join("/", b.resource) + ")";
        List<String> field = b.field == null ? null : Dicts.parseField(b.field);
        String id = b.field == null ? b.id : b.id + "/" + b.field;
        Filters filters = new Filters(b.labels, b.annotations, field, b.value, b.old, b.current, b.when);
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
                b.kind == Kind.DELETE && !b.optional, field, b.errors, b.timeout, b.retries, b.backoff, b.param,
                filters, selector, function, origin));
    }

    /** The options of one handler; {@link #handle(HandlerFn)} completes it. */
    public static final class Builder {
        private final Kind kind;
        private final String[] resource;
        private String id;
        private ErrorsMode errors;
        private Duration timeout;
        private Integer retries;
        private Duration backoff;
        private Object param;
        private final Map<String, Condition> labels = new LinkedHashMap<>();
        private final Map<String, Condition> annotations = new LinkedHashMap<>();
        private String field;
        private Condition value;
        private Condition old;
        private Condition current;
        private final List<Filter> when = new ArrayList<>();
        private boolean optional;
        private boolean deleted;

        private Builder(Kind kind, String[] resource) {
            this.kind = kind;
            this.resource = resource.clone();
        }

        /**
         * The handler id (required): it names {@code status.<id>} and the progress record, so it must
         * stay the same across restarts.
         *
         * @param handlerId the id, e.g. {@code "create"}
         * @return this builder
         */
        public Builder id(String handlerId) {
            this.id = handlerId;
            return this;
        }

        /**
         * What an arbitrary exception from the handler means (Kopf's {@code errors=});
         * {@link TemporaryError} and {@link PermanentError} always mean what they say.
         *
         * @param mode {@link ErrorsMode#TEMPORARY} by default for changing handlers
         * @return this builder
         */
        public Builder errors(ErrorsMode mode) {
            this.errors = mode;
            return this;
        }

        /**
         * Gives up, failing the handler with a {@link HandlerTimeoutError}, when its attempts for one
         * change have taken longer than this; by default never.
         *
         * @param limit the time since the first attempt
         * @return this builder
         */
        public Builder timeout(Duration limit) {
            this.timeout = limit;
            return this;
        }

        /**
         * Gives up, failing the handler with a {@link HandlerRetriesError}, after this many failed
         * attempts for one change; by default never.
         *
         * @param limit the number of attempts
         * @return this builder
         */
        public Builder retries(int limit) {
            this.retries = limit;
            return this;
        }

        /**
         * The delay before retrying after an arbitrary exception; by default
         * {@code settings.execution.defaultBackoff} (60 seconds). A {@link TemporaryError} brings its own.
         *
         * @param delay the delay
         * @return this builder
         */
        public Builder backoff(Duration delay) {
            this.backoff = delay;
            return this;
        }

        /**
         * A value passed to the handler as its {@code param}: one function can serve several handlers.
         *
         * @param value any value, as {@link HandlerContext#param()}
         * @return this builder
         */
        public Builder param(Object value) {
            this.param = value;
            return this;
        }

        /**
         * Only for objects whose label has this value.
         *
         * @param key the label's key
         * @param labelValue the value it must have
         * @return this builder
         */
        public Builder label(String key, String labelValue) {
            labels.put(key, new Condition.Exact(labelValue));
            return this;
        }

        /**
         * Only for objects whose label's value (null if absent) passes the predicate.
         *
         * @param key the label's key
         * @param predicate the test of its value
         * @return this builder
         */
        public Builder label(String key, Predicate<String> predicate) {
            labels.put(key, new Condition.Matching(v -> predicate.test((String) v)));
            return this;
        }

        /**
         * Only for objects that have this label, with any value.
         *
         * @param key the label's key
         * @return this builder
         */
        public Builder labelPresent(String key) {
            labels.put(key, new Condition.Present());
            return this;
        }

        /**
         * Only for objects that do not have this label.
         *
         * @param key the label's key
         * @return this builder
         */
        public Builder labelAbsent(String key) {
            labels.put(key, new Condition.Absent());
            return this;
        }

        /**
         * Only for objects whose annotation has this value.
         *
         * @param key the annotation's key
         * @param annotationValue the value it must have
         * @return this builder
         */
        public Builder annotation(String key, String annotationValue) {
            annotations.put(key, new Condition.Exact(annotationValue));
            return this;
        }

        /**
         * Only for objects whose annotation's value (null if absent) passes the predicate.
         *
         * @param key the annotation's key
         * @param predicate the test of its value
         * @return this builder
         */
        public Builder annotation(String key, Predicate<String> predicate) {
            annotations.put(key, new Condition.Matching(v -> predicate.test((String) v)));
            return this;
        }

        /**
         * Only for objects that have this annotation, with any value.
         *
         * @param key the annotation's key
         * @return this builder
         */
        public Builder annotationPresent(String key) {
            annotations.put(key, new Condition.Present());
            return this;
        }

        /**
         * Only for objects that do not have this annotation.
         *
         * @param key the annotation's key
         * @return this builder
         */
        public Builder annotationAbsent(String key) {
            annotations.put(key, new Condition.Absent());
            return this;
        }

        /**
         * A field: update and field handlers react only to its changes ({@code old}, {@code current}
         * and {@code diff} are then relative to it), the others need it present. The id becomes
         * {@code <id>/<field>}.
         *
         * @param path a dotted path, e.g. {@code spec.size}
         * @return this builder
         */
        public Builder field(String path) {
            this.field = path;
            return this;
        }

        /**
         * Only if the field's value, old or new, passes the predicate (null when absent); needs a
         * {@link #field(String) field}, and excludes {@link #old(Predicate)} and {@link #current(Predicate)}.
         *
         * @param predicate the test of the value
         * @return this builder
         */
        public Builder value(Predicate<Object> predicate) {
            this.value = new Condition.Matching(predicate);
            return this;
        }

        /**
         * Only if the field's value before the change passes the predicate (update and field handlers;
         * null when absent); needs a {@link #field(String) field}.
         *
         * @param predicate the test of the old value
         * @return this builder
         */
        public Builder old(Predicate<Object> predicate) {
            this.old = new Condition.Matching(predicate);
            return this;
        }

        /**
         * Only if the field's value after the change passes the predicate (update and field handlers;
         * null when absent); needs a {@link #field(String) field}.
         *
         * @param predicate the test of the new value
         * @return this builder
         */
        public Builder current(Predicate<Object> predicate) {
            this.current = new Condition.Matching(predicate);
            return this;
        }

        /**
         * Only if the filter holds for the handler's context; several filters must all hold.
         *
         * <pre>{@code
         * Handler.update("kopfexamples").id("scale").when(context -> context.spec().containsKey("replicas"))
         * }</pre>
         *
         * @param filter the test
         * @return this builder
         */
        public Builder when(Filter filter) {
            when.add(Objects.requireNonNull(filter, "filter"));
            return this;
        }

        /**
         * Delete handlers: best effort, without a finalizer, so the object may be gone before the
         * handler runs.
         *
         * @return this builder
         */
        public Builder optional() {
            this.optional = true;
            return this;
        }

        /**
         * Resume handlers: also for objects that are already being deleted.
         *
         * @return this builder
         */
        public Builder deleted() {
            this.deleted = true;
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
            String what = "Handler for " + String.join("/", resource);
            if (id == null || id.isBlank()) {
                throw new InvalidHandlerException(what + ": handlers registered as functions need an id, e.g. .id(\"create\")");
            }
            if ((value != null || old != null || current != null) && field == null) {
                throw new InvalidHandlerException(what + " '" + id + "': value, old and current need a field");
            }
            if (value != null && (old != null || current != null)) {
                throw new InvalidHandlerException(what + " '" + id + "': value excludes old and current");
            }
            if (kind == Kind.FIELD && field == null) {
                throw new InvalidHandlerException(what + " '" + id + "': field handlers need a field");
            }
            return new Handler(this, Objects.requireNonNull(function, "function"));
        }
    }
}
