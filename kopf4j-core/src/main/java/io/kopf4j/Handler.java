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

        /** The handler id (required): it names {@code status.<id>} and the progress record. */
        public Builder id(String handlerId) {
            this.id = handlerId;
            return this;
        }

        public Builder errors(ErrorsMode mode) {
            this.errors = mode;
            return this;
        }

        public Builder timeout(Duration limit) {
            this.timeout = limit;
            return this;
        }

        public Builder retries(int limit) {
            this.retries = limit;
            return this;
        }

        public Builder backoff(Duration delay) {
            this.backoff = delay;
            return this;
        }

        /** A value passed to the handler as its {@code param}: one function can serve several handlers. */
        public Builder param(Object value) {
            this.param = value;
            return this;
        }

        /** The label must have this value. */
        public Builder label(String key, String labelValue) {
            labels.put(key, new Condition.Exact(labelValue));
            return this;
        }

        /** The label's value (null if absent) must pass the predicate. */
        public Builder label(String key, Predicate<String> predicate) {
            labels.put(key, new Condition.Matching(v -> predicate.test((String) v)));
            return this;
        }

        public Builder labelPresent(String key) {
            labels.put(key, new Condition.Present());
            return this;
        }

        public Builder labelAbsent(String key) {
            labels.put(key, new Condition.Absent());
            return this;
        }

        /** The annotation must have this value. */
        public Builder annotation(String key, String annotationValue) {
            annotations.put(key, new Condition.Exact(annotationValue));
            return this;
        }

        public Builder annotation(String key, Predicate<String> predicate) {
            annotations.put(key, new Condition.Matching(v -> predicate.test((String) v)));
            return this;
        }

        public Builder annotationPresent(String key) {
            annotations.put(key, new Condition.Present());
            return this;
        }

        public Builder annotationAbsent(String key) {
            annotations.put(key, new Condition.Absent());
            return this;
        }

        /** A dotted field path: update and field handlers react to its changes; all need it present. */
        public Builder field(String path) {
            this.field = path;
            return this;
        }

        /** The field's value, old or new, must pass the predicate (null when absent). */
        public Builder value(Predicate<Object> predicate) {
            this.value = new Condition.Matching(predicate);
            return this;
        }

        /** The field's value before the change must pass the predicate (update and field handlers). */
        public Builder old(Predicate<Object> predicate) {
            this.old = new Condition.Matching(predicate);
            return this;
        }

        /** The field's value after the change must pass the predicate (update and field handlers). */
        public Builder current(Predicate<Object> predicate) {
            this.current = new Condition.Matching(predicate);
            return this;
        }

        public Builder when(Filter filter) {
            when.add(Objects.requireNonNull(filter, "filter"));
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
