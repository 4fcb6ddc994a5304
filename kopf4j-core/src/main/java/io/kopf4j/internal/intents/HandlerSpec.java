package io.kopf4j.internal.intents;

import io.kopf4j.ActivityFn;
import io.kopf4j.Condition;
import io.kopf4j.ErrorsMode;
import io.kopf4j.Filter;
import io.kopf4j.HandlerDescription;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.HandlerFn;
import io.kopf4j.HandlerKind;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.Reason;
import io.kopf4j.ResourceMatcher;
import io.kopf4j.internal.structs.Dicts;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One handler's specification, made in one place from a {@link HandlerDescription}: the one that
 * the builders of {@code Handler}, {@code SubHandler} and {@code Activity} make, or the one that the
 * annotation scanner ({@link HandlerScanner}) makes of an annotation. It cannot change once made.
 * It alone checks Kopf's rules for declaring handlers and makes the handler records, so that a rule
 * has one message whichever way the handler was declared. The options are checked in the
 * description's order, the combinations of options when the handler is built; the messages name the
 * handler as it was declared:
 * {@code Handler Example.create(Spec)} for an annotated method, {@code Handler for kopfexamples 'create'}
 * (or {@code Sub-handler 'id'}, {@code Activity 'id'}) for a builder.
 *
 * <p>An option crosses three places: its declaration (an annotation attribute, which the scanner
 * reads, or a builder method; both add it to the description as an {@link Option} record), its rule
 * here, and the engine that uses it. The options of one kind of handler (daemons, timers, webhooks)
 * reach their engine as they are, in the handler's {@link KindOptions}, so the handler records do
 * not change for them; the options every kind shares (id, filters, errors, retries) are fields.
 */
public final class HandlerSpec {
    /** The operations of admission requests (Kopf's {@code reviews.Operation}). */
    private static final List<String> ADMISSION_OPERATIONS = List.of("CREATE", "UPDATE", "DELETE", "CONNECT");
    private final HandlerKind kind;
    private final String[] resource;
    /** The annotated method as messages name it, or null for builders. */
    private final String method;
    /** The id when none is given: the annotated method's name, or null for builders (which need one). */
    private final String defaultId;
    private String id;
    private String field;
    private Condition value;
    private Condition old;
    private Condition current;
    private final Map<String, Condition> labels = new LinkedHashMap<>();
    private final Map<String, Condition> annotations = new LinkedHashMap<>();
    private final List<Filter> when = new ArrayList<>();
    private ResourceMatcher matcher;
    private ErrorsMode errors;
    private Duration timeout;
    private Integer retries;
    private Duration backoff;
    private Object param;
    private boolean optional;
    private boolean deleted;
    /** How the initial delay was given, fixed or computed, or null: they exclude each other. */
    private Class<? extends Option> initialDelayForm;
    /** The options of daemons, timers and webhooks, checked: their engines read them by type. */
    private final KindOptions.Collected kindOptions = new KindOptions.Collected();

    /** Only here are the fields set: each option of the description, checked in its order. */
    private HandlerSpec(HandlerDescription description, String method, String defaultId) {
        this.kind = Objects.requireNonNull(description.kind(), "kind");
        this.resource = description.resource().toArray(String[]::new);
        this.method = method;
        this.defaultId = defaultId;
        for (Option option : description.options()) {
            apply(option);
        }
    }

    /**
     * The specification of a handler declared by an annotated method: messages name the method,
     * whose name is the default id.
     *
     * @param description what the annotation declares ({@link HandlerScanner})
     * @param declared the annotated method
     * @return the specification
     * @throws InvalidHandlerException naming the method and the first rule an option breaks
     */
    public static HandlerSpec annotated(HandlerDescription description, Method declared) {
        return new HandlerSpec(description, ParameterBinder.describe(declared), declared.getName());
    }

    /**
     * The specification of a handler declared with a builder, its options checked in order.
     *
     * @param description what the builder of {@code Handler}, {@code SubHandler} or {@code Activity} declared
     * @return the specification
     * @throws InvalidHandlerException naming the handler and the first rule an option breaks
     */
    public static HandlerSpec described(HandlerDescription description) {
        return new HandlerSpec(description, null, null);
    }

    private void apply(Option option) {
        switch (option) {
            case Option.Id o -> id(o.id());
            case Option.Field o -> field(o.path());
            case Option.Value o -> value(o.condition());
            case Option.Old o -> old(o.condition());
            case Option.Current o -> current(o.condition());
            case Option.Label o -> label(o.key(), o.condition());
            case Option.Annotation o -> annotation(o.key(), o.condition());
            case Option.When o -> when(o.filter());
            case Option.Selector o -> selector(o.matcher());
            case Option.Errors o -> errors(o.mode());
            case Option.Timeout o -> timeout(o.limit());
            case Option.Retries o -> retries(o.attempts());
            case Option.Backoff o -> backoff(o.delay());
            case Option.Param o -> param(o.value());
            case Option.NotBlocking o -> optional(true);
            case Option.AlsoDeleted o -> deleted(true);
            case Option.InitialDelay o -> initialDelay(o.delay());
            case Option.ComputedInitialDelay o -> initialDelay(o);
            case Option.CancellationBackoff o ->
                    kindOption(HandlerKind.DAEMON, o, () -> new Option.CancellationBackoff(notNegative("cancellationBackoff", o.delay())));
            case Option.CancellationTimeout o ->
                    kindOption(HandlerKind.DAEMON, o, () -> new Option.CancellationTimeout(notNegative("cancellationTimeout", o.limit())));
            case Option.CancellationPolling o ->
                    kindOption(HandlerKind.DAEMON, o, () -> new Option.CancellationPolling(positive("cancellationPolling", o.period())));
            case Option.Interval o -> kindOption(HandlerKind.TIMER, o, () -> new Option.Interval(positive("interval", o.period())));
            case Option.Sharp o -> kindOption(HandlerKind.TIMER, o, () -> o);
            case Option.Idle o -> kindOption(HandlerKind.TIMER, o, () -> new Option.Idle(positive("idle", o.quiet())));
            case Option.Operations o -> operations(o.names());
            case Option.Subresource o -> subresource(o);
            case Option.Persistent o -> admissionOption("persistent", o);
            case Option.SideEffects o -> admissionOption("sideEffects", o);
            case Option.IgnoreFailures o -> admissionOption("ignoreFailures", o);
            case Option.ChildKinds o -> childrenOption("kinds", o);
            case Option.ChildResources o -> childResources(o);
            case Option.ReadyCondition o -> childrenOption("readyCondition", readyCondition(o));
        }
    }

    /** What the handler reacts to. */
    public HandlerKind kind() {
        return kind;
    }

    /** {@return the activity of an operator-level handler (startup, cleanup, login, probe), or null for the others} */
    public String activity() {
        return switch (kind) {
            case STARTUP -> ActivityHandler.STARTUP;
            case CLEANUP -> ActivityHandler.CLEANUP;
            case LOGIN -> ActivityHandler.AUTHENTICATION;
            case PROBE -> ActivityHandler.PROBE;
            default -> null;
        };
    }

    private boolean admission() {
        return kind == HandlerKind.VALIDATE || kind == HandlerKind.MUTATE;
    }

    private Reason reason() {
        return switch (kind) {
            case CREATE -> Reason.CREATE;
            case UPDATE -> Reason.UPDATE;
            case DELETE -> Reason.DELETE;
            default -> null;
        };
    }

    private static String written(HandlerKind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }

    /** The handler id (Kopf's {@code id}); the field is appended when the handler is built. */
    private HandlerSpec id(String handlerId) {
        this.id = requireId(handlerId);
        return this;
    }

    /** A dotted field path; blank means none. */
    private HandlerSpec field(String path) {
        this.field = path == null || path.isBlank() ? null : path.strip();
        return this;
    }

    /** The field's value, in the old or the new state (Kopf's {@code value}). */
    private HandlerSpec value(Condition condition) {
        this.value = condition;
        return this;
    }

    /** The field's value before the change (Kopf's {@code old}). */
    private HandlerSpec old(Condition condition) {
        this.old = condition;
        return this;
    }

    /** The field's value after the change (Kopf's {@code new}). */
    private HandlerSpec current(Condition condition) {
        this.current = condition;
        return this;
    }

    /** A condition on a label. */
    private HandlerSpec label(String key, Condition condition) {
        return put(labels, key, condition);
    }

    /** A condition on an annotation. */
    private HandlerSpec annotation(String key, Condition condition) {
        return put(annotations, key, condition);
    }

    private HandlerSpec put(Map<String, Condition> conditions, String key, Condition condition) {
        conditions.put(requireKey(key, condition), condition);
        return this;
    }

    /** A predicate the object (and the change) must pass. */
    private HandlerSpec when(Filter filter) {
        when.add(Objects.requireNonNull(filter, "filter"));
        return this;
    }

    /**
     * The resources as a predicate (Kopf's callable selector): for handlers of objects, but not the
     * children's parents (named, so that their children's owner references are of one kind) nor
     * sub-handlers (their parent's resource).
     */
    private HandlerSpec selector(ResourceMatcher resources) {
        if (kind == HandlerKind.CHILDREN || kind == HandlerKind.SUBHANDLER || activity() != null) {
            throw invalid("a selector is an option of the handlers of objects (not of " + written(kind) + " handlers)");
        }
        this.matcher = Objects.requireNonNull(resources, "selector");
        return this;
    }

    /** What an arbitrary exception means. */
    private HandlerSpec errors(ErrorsMode mode) {
        this.errors = Objects.requireNonNull(mode, "errors");
        return this;
    }

    /** Give up once this long has passed since the first attempt. */
    private HandlerSpec timeout(Duration limit) {
        if (limit.isNegative() || limit.isZero()) {
            throw invalid("timeout must be positive, got " + limit);
        }
        this.timeout = limit;
        return this;
    }

    /** Give up after this many attempts. */
    private HandlerSpec retries(int attempts) {
        if (attempts < 1) {
            throw invalid("retries must be at least 1, got " + attempts);
        }
        this.retries = attempts;
        return this;
    }

    /** The delay before retrying after an arbitrary exception. */
    private HandlerSpec backoff(Duration delay) {
        if (delay.isNegative()) {
            throw invalid("backoff must not be negative, got " + delay);
        }
        this.backoff = delay;
        return this;
    }

    /** The value passed to the handler as its {@code param}. */
    private HandlerSpec param(Object value) {
        this.param = value;
        return this;
    }

    /** Delete handlers: without a finalizer. */
    private HandlerSpec optional(boolean bestEffort) {
        this.optional = bestEffort;
        return this;
    }

    /** Resume handlers: also for objects being deleted. */
    private HandlerSpec deleted(boolean alsoDeleted) {
        this.deleted = alsoDeleted;
        return this;
    }

    /** Daemons and timers: the delay before the first call, computed from the object when it is first seen. */
    private void initialDelay(Option.ComputedInitialDelay delay) {
        requireSpawning("initialDelay");
        Objects.requireNonNull(delay.delay(), "initialDelay");
        initialDelayForm(Option.ComputedInitialDelay.class);
        kindOptions.put(delay);
    }

    /** Daemons and timers: a fixed delay before the first call, kept as the computed one that engines read. */
    private void initialDelay(Duration delay) {
        requireSpawning("initialDelay");
        Duration checked = notNegative("initialDelay", delay);
        initialDelayForm(Option.InitialDelay.class);
        kindOptions.put(new Option.ComputedInitialDelay(context -> checked));
    }

    /**
     * Kopf has one {@code initial_delay}, a number or a callable: a fixed delay and a computed one
     * given together are a declaration error, whichever comes first (the same form twice: the last wins).
     */
    private void initialDelayForm(Class<? extends Option> form) {
        if (initialDelayForm != null && initialDelayForm != form) {
            throw invalid("initialDelay (seconds) and initialDelayFn (a function) exclude each other;"
                    + " give the initial delay one way");
        }
        initialDelayForm = form;
    }

    /** An option of one kind of handler only (daemons or timers): the kind is checked first, then its value. */
    private void kindOption(HandlerKind required, Option given, Supplier<Option> checked) {
        requireKind(required, written(given));
        kindOptions.put(checked.get());
    }

    /** An option as its builder method is named: {@code CancellationBackoff} is {@code cancellationBackoff}. */
    private static String written(Option option) {
        String type = option.getClass().getSimpleName();
        return Character.toLowerCase(type.charAt(0)) + type.substring(1);
    }

    /** Admission handlers: the operations their webhook is for; none given: all. */
    private void operations(List<String> names) {
        requireAdmission("operations");
        if (names.isEmpty()) {
            // Kopf: "Operations should be either None or non-empty."
            throw invalid("operations must not be empty; leave them out for all operations");
        }
        for (String name : names) {
            if (!ADMISSION_OPERATIONS.contains(name)) {
                throw invalid("unknown operation '" + name + "'; use " + String.join(", ", ADMISSION_OPERATIONS));
            }
        }
        kindOptions.put(new Option.Operations(List.copyOf(new LinkedHashSet<>(names))));
    }

    /** Admission handlers: the subresource they are for ({@code status}, {@code scale}, {@code *}); blank: the main resource. */
    private void subresource(Option.Subresource subresource) {
        requireAdmission("subresource");
        String name = subresource.name();
        if (name == null || name.isBlank()) {
            kindOptions.remove(Option.Subresource.class);
        } else {
            kindOptions.put(new Option.Subresource(name.strip()));
        }
    }

    /** An option of admission handlers only: {@code persistent}, {@code sideEffects}, {@code ignoreFailures}. */
    private void admissionOption(String name, Option option) {
        requireAdmission(name);
        kindOptions.put(option);
    }

    /** An option of children handlers only: {@code kinds}, {@code resources}, {@code readyCondition}. */
    private void childrenOption(String name, Option option) {
        if (kind != HandlerKind.CHILDREN) {
            throw invalid(name + " is an option of children handlers only");
        }
        kindOptions.put(option);
    }

    /** Children handlers: the kinds of their children by resource selector, each one that kopf4j can watch. */
    private void childResources(Option.ChildResources resources) {
        for (String selector : resources.selectors()) {
            try {
                ResourceSelector.parse(new String[]{selector});
            } catch (IllegalArgumentException e) {
                throw invalid("children's resource '" + selector + "': " + e.getMessage());
            }
        }
        childrenOption("resources", resources);
    }

    /** Children handlers: the parent's condition type, as the API validates a condition's type. */
    private Option.ReadyCondition readyCondition(Option.ReadyCondition condition) {
        String type = condition.type();
        if (type == null || type.isBlank() || type.length() > 316) {
            throw invalid("readyCondition must be a condition type of 1 to 316 characters, e.g. Ready, got '" + type + "'");
        }
        return new Option.ReadyCondition(type.strip());
    }

    /**
     * Checks the combinations of options (each option alone was checked when set).
     *
     * @throws InvalidHandlerException naming the handler and the rule it breaks
     */
    void validate() {
        requireId(id == null ? defaultId : id);
        if (kind == HandlerKind.FIELD && field == null) {
            throw invalid("field handlers need a field, e.g. spec.size");
        }
        if ((value != null || old != null || current != null) && field == null) {
            throw invalid("the field's value filters (value, old and new) need a field");
        }
        if (value != null && (old != null || current != null)) {
            throw invalid("the field's value filter excludes its old and new value filters;"
                    + " use either the value in any state, or the old and new values");
        }
        if (kind == HandlerKind.CHILDREN && !kindOptions.has(Option.ChildKinds.class)
                && !kindOptions.has(Option.ChildResources.class)) {
            throw invalid("children handlers need the kinds of their children, which kopf4j watches:"
                    + " kinds = {Deployment.class} or resources = {\"deployments.apps\"}");
        }
        if (activity() == null && kind != HandlerKind.SUBHANDLER) {
            selector();
        }
    }

    /**
     * Builds the handler of objects (a changing or an event handler, a daemon or a timer) and adds it to the registry.
     *
     * @param function the bound handler
     * @param registry where it goes
     * @throws InvalidHandlerException if the specification breaks a rule
     */
    public void register(HandlerFn function, HandlerRegistry registry) {
        validate();
        if (kind == HandlerKind.DAEMON) {
            registry.add(new DaemonHandler(fullId(), errors, timeout, retries, backoff, param, filters(), selector(),
                    function, origin(), kindOptions.options()));
        } else if (kind == HandlerKind.CHILDREN) {
            registry.add(new ChildrenHandler(fullId(), errors, timeout, retries, backoff, param, filters(), selector(),
                    function, origin(), kindOptions.options()));
        } else if (kind == HandlerKind.TIMER) {
            registry.add(new TimerHandler(fullId(), errors, timeout, retries, backoff, param, filters(), selector(),
                    function, origin(), kindOptions.options()));
        } else if (kind == HandlerKind.INDEX) {
            if (timeout != null || retries != null) {
                throw invalid("indexing functions take no timeout or retries (they are never retried)");
            }
            // The index is named by its id alone: handlers get it as a parameter of that name.
            registry.add(new IndexingHandler(id == null ? defaultId : id, errors, backoff, param, filters(), selector(),
                    function, origin()));
        } else if (admission()) {
            if (errors != null || timeout != null || retries != null || backoff != null) {
                // Kopf's admission handlers run once per request and are never retried: these options mean nothing.
                throw invalid("admission handlers take no errors, timeout, retries or backoff (they are never retried)");
            }
            if (old != null || current != null) {
                throw invalid("admission handlers take no old or new value filters (use the field's value)");
            }
            registry.add(new WebhookHandler(fullId(),
                    kind == HandlerKind.VALIDATE ? WebhookType.VALIDATING : WebhookType.MUTATING, param, filters(),
                    selector(), function, origin(), kindOptions.options()));
        } else if (kind == HandlerKind.EVENT) {
            if (errors != null || timeout != null || retries != null || backoff != null) {
                // Kopf's event handlers run once per event and are never retried: these options mean nothing.
                throw invalid("event handlers take no errors, timeout, retries or backoff (they are never retried)");
            }
            registry.add(new WatchingHandler(fullId(), param, filters(), selector(), function, origin()));
        } else {
            registry.add(new ChangingHandler(fullId(), reason(), kind == HandlerKind.RESUME, deleted,
                    kind == HandlerKind.DELETE && !optional, fieldPath(), errors, timeout, retries, backoff, param,
                    filters(), selector(), function, origin()));
        }
    }

    /**
     * Builds the activity handler (startup, cleanup, login, probe).
     *
     * @param function what it does
     * @return the handler
     * @throws InvalidHandlerException if the specification breaks a rule
     */
    public ActivityHandler activity(ActivityFn function) {
        validate();
        return new ActivityHandler(activity(), fullId(), errors, timeout, retries, backoff, param,
                Objects.requireNonNull(function, "function"), origin());
    }

    /**
     * Builds the sub-handler as it runs under its parent: the parent's id as a prefix, and the
     * parent's reason, resume and resource, so that it runs for whatever cause the parent runs.
     *
     * @param parent the handler that registered or executes it
     * @param function what it does
     * @return the handler
     */
    public ChangingHandler under(ChangingHandler parent, HandlerFn function) {
        validate();
        return new ChangingHandler(parent.id() + "/" + fullId(), parent.reason(), parent.initial(), parent.deleted(),
                false, fieldPath(), errors, timeout, retries, backoff, param, filters(), parent.selector(), function,
                parent.origin() + " sub-handler '" + id + "'");
    }

    /** Kopf's ids: the id (or the method name), plus {@code /field.path} for handlers with a field. */
    private String fullId() {
        String base = id == null ? defaultId : id;
        return field == null ? base : base + "/" + field;
    }

    private List<String> fieldPath() {
        return field == null ? null : Dicts.parseField(field);
    }

    private Filters filters() {
        return new Filters(labels, annotations, fieldPath(), value, old, current, when);
    }

    private ResourceSelector selector() {
        if (matcher != null) {
            if (resource.length > 0) {
                throw invalid("The callable filter cannot have any other selectors.");   // Kopf's words
            }
            return ResourceSelector.matching(matcher);
        }
        try {
            return ResourceSelector.parse(resource);
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    /** Where the handler was declared, kept in its record for later messages (duplicate ids, sub-handlers). */
    private String origin() {
        if (method != null) {
            return method;
        }
        String what = activity() != null ? activity() : written(kind) + " " + String.join("/", resource);
        return "'" + id + "' (" + what + ")";
    }

    /** How messages name the handler now, before it is complete. */
    private String subject() {
        if (method != null) {
            return "Handler " + method;
        }
        String named = id == null ? "" : " '" + id + "'";
        if (kind == HandlerKind.SUBHANDLER) {
            return "Sub-handler" + named;
        }
        if (activity() != null) {
            return "Activity" + (id == null ? " (" + written(kind) + ")" : named);
        }
        return "Handler" + (resource.length == 0 ? "" : " for " + String.join("/", resource)) + named;
    }

    private InvalidHandlerException invalid(String rule) {
        return new InvalidHandlerException(subject() + ": " + rule);
    }

    private void requireAdmission(String option) {
        if (!admission()) {
            throw invalid(option + " is an option of admission handlers (validate, mutate) only");
        }
    }

    private void requireSpawning(String option) {
        if (kind != HandlerKind.DAEMON && kind != HandlerKind.TIMER) {
            throw invalid(option + " is an option of daemons and timers only");
        }
    }

    private void requireKind(HandlerKind required, String option) {
        if (kind != required) {
            throw invalid(option + " is an option of " + written(required) + "s only");
        }
    }

    private Duration notNegative(String option, Duration value) {
        if (value == null || value.isNegative()) {
            throw invalid(option + " must not be negative, got " + value);
        }
        return value;
    }

    private Duration positive(String option, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw invalid(option + " must be positive, got " + value);
        }
        return value;
    }

    private String requireId(String handlerId) {
        if (handlerId == null || handlerId.isBlank()) {
            throw invalid("handlers need an id, not blank: it names the handler's progress and result on the"
                    + " objects, so it must stay the same across restarts");
        }
        return handlerId;
    }

    private String requireKey(String key, Condition condition) {
        if (key == null || key.isBlank()) {
            throw invalid("invalid label or annotation filter '" + written(key, condition)
                    + "'; use \"key=value\", \"key\" (present) or \"!key\" (absent)");
        }
        return key;
    }

    /** A filter on a key as annotations write it, for messages. */
    private static String written(String key, Condition condition) {
        String name = key == null ? "" : key;
        return switch (condition) {
            case Condition.Exact exact -> name + "=" + exact.text();
            case Condition.Present present -> name;
            case Condition.Absent absent -> "!" + name;
            case Condition.Matching matching -> name + " (a predicate)";
        };
    }

    /** Parses an annotation's value: {@code <present>}, {@code <absent>}, or an exact value. */
    static Condition parseCondition(String text) {
        return switch (text) {
            case Filter.PRESENT -> new Condition.Present();
            case Filter.ABSENT -> new Condition.Absent();
            default -> new Condition.Exact(text);
        };
    }

    /** Parses {@code "key=value"}, {@code "key"} (present) and {@code "!key"} (absent). */
    static Map.Entry<String, Condition> parseKey(String entry) {
        int equals = entry.indexOf('=');
        if (entry.startsWith("!")) {
            return Map.entry(entry.substring(1), new Condition.Absent());
        }
        if (equals < 0) {
            return Map.entry(entry, new Condition.Present());
        }
        return Map.entry(entry.substring(0, equals), new Condition.Exact(entry.substring(equals + 1)));
    }
}
