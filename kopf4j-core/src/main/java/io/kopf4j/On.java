package io.kopf4j;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Handler annotations, one per kind of change, as Kopf's {@code @kopf.on.*} decorators.
 *
 * <p>A handler is a plain method that declares only the parameters it needs; they are bound by
 * type ({@link Spec}, {@link Meta}, {@link Body}, {@link Patch}, {@link Diff}, {@link Resource},
 * {@link org.slf4j.Logger}, ...) or, for strings and maps, by name ({@code name},
 * {@code namespace}, {@code uid}, {@code labels}, {@code annotations}). A non-null return value is
 * stored in the object's {@code status.<handler id>}.
 *
 * <pre>{@code
 * public class Example {
 *     @On.Create("kopfexamples")
 *     public Map<String, Object> create(Spec spec, String name, Logger logger) {
 *         logger.info("Created {} with spec: {}", name, spec);
 *         return Map.of("message", "Resource " + name + " created successfully");
 *     }
 * }
 * }</pre>
 *
 * <p>The resource is given as in Kopf: a plural, singular, kind or short name of any group
 * ({@code "kopfexamples"}), kubectl style ({@code "kopfexamples.kopf.dev"}), or as
 * group, version and plural ({@code {"kopf.dev", "v1", "kopfexamples"}}); it is resolved through
 * the API server's discovery endpoints.
 */
public final class On {
    // Java annotation types cannot share or inherit members, so each repeats the common ones.

    /**
     * Every resource (Kopf's {@code kopf.EVERYTHING}), optionally of one group:
     * {@code @On.Event(On.EVERYTHING)}, {@code @On.Event({"apps", On.EVERYTHING})}. Events themselves
     * are left out, and resources that cannot be listed and watched (or patched, for changing
     * handlers) are skipped.
     */
    public static final String EVERYTHING = "*";

    /** Every resource of a category, e.g. {@code @On.Event(On.CATEGORY + "all")}. */
    public static final String CATEGORY = "category=";
    private On() {
    }

    /**
     * Runs when an object is created, or first seen without kopf4j's (or Kopf's) record of a
     * previous handling. The handler id is the method name unless {@link #id()} is set.
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Create {
        /** {@return the resource selector: one to three strings, as described on {@link On}; empty with {@link #selector()}} */
        String[] value() default {};

        /** {@return the resources as a predicate instead (Kopf's callable selector): any group and version, never Events} */
        Class<? extends ResourceMatcher> selector() default ResourceMatcher.class;

        /** {@return the handler id; by default the method name: it names {@code status.<id>} and the progress record} */
        String id() default "";

        /** {@return a value passed to the handler as its {@code param} parameter (Kopf's {@code param=})} */
        String param() default "";

        /** {@return what an arbitrary exception means; {@link TemporaryError} and {@link PermanentError} always win} */
        ErrorsMode errors() default ErrorsMode.TEMPORARY;

        /** {@return how many seconds of attempts before giving up (permanently); negative: never} */
        double timeout() default -1;

        /** {@return how many attempts before giving up (permanently); negative: never} */
        int retries() default -1;

        /** {@return seconds before retrying after an arbitrary exception; negative: the operator's default (60)} */
        double backoff() default -1;

        /** {@return label filters, all of which must hold: {@code "key=value"}, {@code "key"} (present), {@code "!key"} (absent)} */
        String[] labels() default {};

        /** {@return annotation filters, as {@link #labels()}} */
        String[] annotations() default {};

        /** {@return predicates on the handler's context that must all hold; classes with a no-argument constructor} */
        Class<? extends Filter>[] when() default {};

        /** {@return a dotted field path such as {@code spec.size} that the object must have (or {@link #fieldValue()}); the id is then {@code method/field}} */
        String field() default "";

        /** {@return the value the field must have (in the old or new state): a JSON or plain value, {@link Filter#PRESENT} or {@link Filter#ABSENT}} */
        String fieldValue() default "";
    }

    /**
     * Runs when the object's essence changes (spec, labels, annotations; not status). With
     * {@link #field()}, only when that field changes; {@code old}, {@code current} and {@code diff}
     * are then relative to the field.
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Update {
        /** {@return the resource selector: one to three strings, as described on {@link On}; empty with {@link #selector()}} */
        String[] value() default {};

        /** {@return the resources as a predicate instead (Kopf's callable selector): any group and version, never Events} */
        Class<? extends ResourceMatcher> selector() default ResourceMatcher.class;

        /** {@return the handler id; by default the method name: it names {@code status.<id>} and the progress record} */
        String id() default "";

        /** {@return a value passed to the handler as its {@code param} parameter (Kopf's {@code param=})} */
        String param() default "";

        /** {@return what an arbitrary exception means; {@link TemporaryError} and {@link PermanentError} always win} */
        ErrorsMode errors() default ErrorsMode.TEMPORARY;

        /** {@return how many seconds of attempts before giving up (permanently); negative: never} */
        double timeout() default -1;

        /** {@return how many attempts before giving up (permanently); negative: never} */
        int retries() default -1;

        /** {@return seconds before retrying after an arbitrary exception; negative: the operator's default (60)} */
        double backoff() default -1;

        /** {@return label filters, all of which must hold: {@code "key=value"}, {@code "key"} (present), {@code "!key"} (absent)} */
        String[] labels() default {};

        /** {@return annotation filters, as {@link #labels()}} */
        String[] annotations() default {};

        /** {@return predicates on the handler's context that must all hold; classes with a no-argument constructor} */
        Class<? extends Filter>[] when() default {};

        /** {@return a dotted field path such as {@code spec.size}: react only to its changes; the id is then {@code method/field}} */
        String field() default "";

        /** {@return the value the field must have (in the old or new state): a JSON or plain value, {@link Filter#PRESENT} or {@link Filter#ABSENT}} */
        String fieldValue() default "";

        /** {@return the value the field must have had before the change (as {@link #fieldValue()})} */
        String oldValue() default "";

        /** {@return the value the field must have after the change (as {@link #fieldValue()})} */
        String newValue() default "";
    }

    /**
     * Runs when the object is being deleted. Unless {@link #optional()}, kopf4j puts its finalizer on
     * the object so that the deletion waits for the handler.
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Delete {
        /** {@return the resource selector: one to three strings, as described on {@link On}; empty with {@link #selector()}} */
        String[] value() default {};

        /** {@return the resources as a predicate instead (Kopf's callable selector): any group and version, never Events} */
        Class<? extends ResourceMatcher> selector() default ResourceMatcher.class;

        /** {@return the handler id; by default the method name: it names {@code status.<id>} and the progress record} */
        String id() default "";

        /** {@return a value passed to the handler as its {@code param} parameter (Kopf's {@code param=})} */
        String param() default "";

        /** {@return what an arbitrary exception means; {@link TemporaryError} and {@link PermanentError} always win} */
        ErrorsMode errors() default ErrorsMode.TEMPORARY;

        /** {@return how many seconds of attempts before giving up (permanently); negative: never} */
        double timeout() default -1;

        /** {@return how many attempts before giving up (permanently); negative: never} */
        int retries() default -1;

        /** {@return seconds before retrying after an arbitrary exception; negative: the operator's default (60)} */
        double backoff() default -1;

        /** {@return label filters, all of which must hold: {@code "key=value"}, {@code "key"} (present), {@code "!key"} (absent)} */
        String[] labels() default {};

        /** {@return annotation filters, as {@link #labels()}} */
        String[] annotations() default {};

        /** {@return predicates on the handler's context that must all hold; classes with a no-argument constructor} */
        Class<? extends Filter>[] when() default {};

        /** {@return a dotted field path such as {@code spec.size} that the object must have (or {@link #fieldValue()}); the id is then {@code method/field}} */
        String field() default "";

        /** {@return the value the field must have (in the old or new state): a JSON or plain value, {@link Filter#PRESENT} or {@link Filter#ABSENT}} */
        String fieldValue() default "";

        /** {@return whether the handler is best effort: no finalizer, so the object may be gone before it runs} */
        boolean optional() default false;
    }

    /**
     * Runs once per object per operator process for objects that exist when the operator starts
     * (and were handled before), mixed into their first handling cycle.
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Resume {
        /** {@return the resource selector: one to three strings, as described on {@link On}; empty with {@link #selector()}} */
        String[] value() default {};

        /** {@return the resources as a predicate instead (Kopf's callable selector): any group and version, never Events} */
        Class<? extends ResourceMatcher> selector() default ResourceMatcher.class;

        /** {@return the handler id; by default the method name: it names {@code status.<id>} and the progress record} */
        String id() default "";

        /** {@return a value passed to the handler as its {@code param} parameter (Kopf's {@code param=})} */
        String param() default "";

        /** {@return what an arbitrary exception means; {@link TemporaryError} and {@link PermanentError} always win} */
        ErrorsMode errors() default ErrorsMode.TEMPORARY;

        /** {@return how many seconds of attempts before giving up (permanently); negative: never} */
        double timeout() default -1;

        /** {@return how many attempts before giving up (permanently); negative: never} */
        int retries() default -1;

        /** {@return seconds before retrying after an arbitrary exception; negative: the operator's default (60)} */
        double backoff() default -1;

        /** {@return label filters, all of which must hold: {@code "key=value"}, {@code "key"} (present), {@code "!key"} (absent)} */
        String[] labels() default {};

        /** {@return annotation filters, as {@link #labels()}} */
        String[] annotations() default {};

        /** {@return predicates on the handler's context that must all hold; classes with a no-argument constructor} */
        Class<? extends Filter>[] when() default {};

        /** {@return a dotted field path such as {@code spec.size} that the object must have (or {@link #fieldValue()}); the id is then {@code method/field}} */
        String field() default "";

        /** {@return the value the field must have (in the old or new state): a JSON or plain value, {@link Filter#PRESENT} or {@link Filter#ABSENT}} */
        String fieldValue() default "";

        /** {@return whether to run also for objects already being deleted (by default they are skipped)} */
        boolean deleted() default false;
    }

    /**
     * Runs when one field changes, for any reason (creation included, if the field is there);
     * {@code old}, {@code current} and {@code diff} are relative to the field. The id is
     * {@code method/field}.
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Field {
        /** {@return the resource selector: one to three strings, as described on {@link On}; empty with {@link #selector()}} */
        String[] value() default {};

        /** {@return the resources as a predicate instead (Kopf's callable selector): any group and version, never Events} */
        Class<? extends ResourceMatcher> selector() default ResourceMatcher.class;

        /** {@return the handler id; by default the method name: it names {@code status.<id>} and the progress record} */
        String id() default "";

        /** {@return a value passed to the handler as its {@code param} parameter (Kopf's {@code param=})} */
        String param() default "";

        /** {@return what an arbitrary exception means; {@link TemporaryError} and {@link PermanentError} always win} */
        ErrorsMode errors() default ErrorsMode.TEMPORARY;

        /** {@return how many seconds of attempts before giving up (permanently); negative: never} */
        double timeout() default -1;

        /** {@return how many attempts before giving up (permanently); negative: never} */
        int retries() default -1;

        /** {@return seconds before retrying after an arbitrary exception; negative: the operator's default (60)} */
        double backoff() default -1;

        /** {@return label filters, all of which must hold: {@code "key=value"}, {@code "key"} (present), {@code "!key"} (absent)} */
        String[] labels() default {};

        /** {@return annotation filters, as {@link #labels()}} */
        String[] annotations() default {};

        /** {@return predicates on the handler's context that must all hold; classes with a no-argument constructor} */
        Class<? extends Filter>[] when() default {};

        /** {@return the dotted field path, e.g. {@code spec.size}} */
        String field();

        /** {@return the value the field must have (in the old or new state): a JSON or plain value, {@link Filter#PRESENT} or {@link Filter#ABSENT}} */
        String fieldValue() default "";

        /** {@return the value the field must have had before the change (as {@link #fieldValue()})} */
        String oldValue() default "";

        /** {@return the value the field must have after the change (as {@link #fieldValue()})} */
        String newValue() default "";
    }

    /**
     * Runs for every raw watch event of matching objects, including those of the initial listing
     * ({@code type} null): no change detection, no progress, no retries; exceptions are logged and
     * ignored. Parameters {@code String type} and {@code Map event} are available.
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Event {
        /** {@return the resource selector: one to three strings, as described on {@link On}; empty with {@link #selector()}} */
        String[] value() default {};

        /** {@return the resources as a predicate instead (Kopf's callable selector): any group and version, never Events} */
        Class<? extends ResourceMatcher> selector() default ResourceMatcher.class;

        /** {@return the handler id; by default the method name: it names {@code status.<id>}} */
        String id() default "";

        /** {@return a value passed to the handler as its {@code param} parameter (Kopf's {@code param=})} */
        String param() default "";

        /** {@return label filters, all of which must hold: {@code "key=value"}, {@code "key"} (present), {@code "!key"} (absent)} */
        String[] labels() default {};

        /** {@return annotation filters, as {@link #labels()}} */
        String[] annotations() default {};

        /** {@return predicates on the handler's context that must all hold; classes with a no-argument constructor} */
        Class<? extends Filter>[] when() default {};

        /** {@return a dotted field path such as {@code spec.size} that the object must have (or {@link #fieldValue()}); the id is then {@code method/field}} */
        String field() default "";

        /** {@return the value the field must have (in the old or new state): a JSON or plain value, {@link Filter#PRESENT} or {@link Filter#ABSENT}} */
        String fieldValue() default "";
    }
    /**
     * A liveness probe (Kopf's {@code @kopf.on.probe}): called when the liveness endpoint
     * ({@code --liveness=http://0.0.0.0:8080/healthz}) is requested, its result reported in the JSON
     * under its id. Results are cached ({@code settings.probes.livenessCache}, 10 s) so that frequent
     * probing cannot overload the operator. The method may declare {@code Memo}, {@code Logger},
     * {@code OperatorSettings}, {@code Object param} or one {@link ActivityContext}. Probes run as
     * Kopf runs them: as an activity, all at once, retried by their options (by default, an
     * arbitrary exception is retried after the backoff while the request waits); if one fails for
     * good, the endpoint answers 500.
     *
     * <pre>{@code
     * @On.Probe
     * public Instant now() { return Instant.now(); }
     * }</pre>
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Probe {
        /** {@return the key of the result in the JSON; by default the method name} */
        String id() default "";

        /** {@return a value passed to the handler as its {@code param} parameter (Kopf's {@code param=})} */
        String param() default "";

        /** {@return what arbitrary exceptions mean (Kopf's {@code errors=}): retried by default} */
        ErrorsMode errors() default ErrorsMode.TEMPORARY;

        /** {@return how many seconds after the first attempt to give up (the probe fails); negative: never} */
        double timeout() default -1;

        /** {@return after how many attempts to give up (the probe fails); negative: never} */
        int retries() default -1;

        /** {@return how many seconds before retrying after an arbitrary exception; negative: the operator's default} */
        double backoff() default -1;
    }

    /**
     * Runs when the operator starts, before anything is watched (Kopf's {@code @kopf.on.startup});
     * the operator starts only when all startup handlers have finished, each retried on its own as
     * other handlers are; if one failed for good, the others still finish, then the start fails with
     * an {@link ActivityError} naming it. It may change the {@link OperatorSettings}: they apply from
     * then on.
     *
     * <pre>{@code
     * @On.Startup
     * public void configure(OperatorSettings settings) { settings.execution.defaultBackoff = Duration.ofSeconds(5); }
     * }</pre>
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Startup {
        /** {@return the handler id; by default the method name} */
        String id() default "";

        /** {@return a value passed to the handler as its {@code param} parameter (Kopf's {@code param=})} */
        String param() default "";

        /** {@return what arbitrary exceptions mean (Kopf's {@code errors=}): retried by default} */
        ErrorsMode errors() default ErrorsMode.TEMPORARY;

        /** {@return seconds after the first attempt to give up (the operator does not start); negative: never} */
        double timeout() default -1;

        /** {@return how many attempts before giving up (the operator does not start); negative: never} */
        int retries() default -1;

        /** {@return seconds before retrying after an arbitrary exception; negative: the operator's default} */
        double backoff() default -1;
    }

    /** Runs when the operator stops gracefully, after watching and handling have ended. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Cleanup {
        /** {@return the handler id; by default the method name} */
        String id() default "";

        /** {@return a value passed to the handler as its {@code param} parameter (Kopf's {@code param=})} */
        String param() default "";

        /** {@return what arbitrary exceptions mean (Kopf's {@code errors=}): retried by default} */
        ErrorsMode errors() default ErrorsMode.TEMPORARY;

        /** {@return seconds after the first attempt to give up (the cleanup fails); negative: never} */
        double timeout() default -1;

        /** {@return how many attempts before giving up (the cleanup fails); negative: never} */
        int retries() default -1;

        /** {@return seconds before retrying after an arbitrary exception; negative: the operator's default} */
        double backoff() default -1;
    }

    /**
     * Returns the credentials to the cluster (Kopf's {@code @kopf.on.login}): a {@link ConnectionInfo},
     * or null when this handler has none. All login handlers run at the start, after the startup
     * handlers; the credentials of the highest priority are used. When the API server rejects them
     * (HTTP 401) or they expire, they are dropped; when none are left, API requests wait while the
     * login handlers run again ("Re-authentication has been initiated."), and credentials rejected
     * before are not used again. Without login handlers, kopf4j logs in with the kubeconfig
     * ({@code --kubeconfig}, {@code $KUBECONFIG}, {@code ~/.kube/config}; priority 10) or the pod's
     * service account (priority 20): see {@link Logins}. Exceptions, a {@link LoginError} among
     * them, follow the handler's options as in Kopf and in startup handlers: retried by default (a
     * token service briefly down delays the login); a handler failed for good fails the login with an
     * {@link ActivityError}.
     *
     * <pre>{@code
     * @On.Login(errors = ErrorsMode.PERMANENT)   // Kopf's example 13: a broken login fails the start
     * public ConnectionInfo login(Logger logger) {
     *     ConnectionInfo base = Logins.withKubeconfig();
     *     return base.toBuilder().token(tokenService.fetch()).expiration(Instant.now().plusSeconds(3000)).build();
     * }
     * }</pre>
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Login {
        /** {@return the handler id; by default the method name} */
        String id() default "";

        /** {@return a value passed to the handler as its {@code param} parameter (Kopf's {@code param=})} */
        String param() default "";

        /** {@return what arbitrary exceptions mean (Kopf's {@code errors=}): retried by default} */
        ErrorsMode errors() default ErrorsMode.TEMPORARY;

        /** {@return seconds after the first attempt to give up (the login fails); negative: never} */
        double timeout() default -1;

        /** {@return how many attempts before giving up (the login fails); negative: never} */
        int retries() default -1;

        /** {@return seconds before retrying after an arbitrary exception; negative: the operator's default} */
        double backoff() default -1;
    }

    /**
     * A validating admission handler (Kopf's {@code @kopf.on.validate}): called by the API server,
     * through the webhook server of {@code settings.admission.server}, before an object is stored;
     * throwing rejects the operation ({@link AdmissionError} with its message and code), returning
     * lets it through. It runs once per request, never retried, and never waits for the watch.
     * Besides the object's parameters, it may declare {@code boolean dryrun}, {@code List<String>
     * warnings} (to append to), {@code Map userinfo}, {@code Map headers}, {@code Map sslpeer},
     * {@code String operation}, {@code String subresource}, {@code old}, {@code current}, {@link Diff}.
     *
     * <pre>{@code
     * @On.Validate("kopfexamples")
     * public void validate(Spec spec) {
     *     if (spec.getInt("size", 0) > 100) {
     *         throw new AdmissionError("Size must be <= 100");
     *     }
     * }
     * }</pre>
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Validate {
        /** {@return the resource selector: one to three strings, as described on {@link On}; empty with {@link #selector()}} */
        String[] value() default {};

        /** {@return the resources as a predicate instead (Kopf's callable selector): any group and version, never Events} */
        Class<? extends ResourceMatcher> selector() default ResourceMatcher.class;

        /** {@return the handler id; by default the method name: it names the handler's webhook (its URL's last segment)} */
        String id() default "";

        /** {@return a value passed to the handler as its {@code param} parameter (Kopf's {@code param=})} */
        String param() default "";

        /** {@return the operations its webhook is registered for: {@code CREATE}, {@code UPDATE}, {@code DELETE}, {@code CONNECT}; none: all} */
        String[] operations() default {};

        /** {@return the subresource it is for ({@code status}, {@code scale}; {@code *} for any); empty: the main resource} */
        String subresource() default "";

        /** {@return whether its webhook stays in the managed configurations when the operator exits} */
        boolean persistent() default false;

        /** {@return whether the handler has side effects: its webhook says {@code NoneOnDryRun} instead of {@code None}} */
        boolean sideEffects() default false;

        /** {@return whether the API server lets the request through when the webhook fails ({@code failurePolicy: Ignore})} */
        boolean ignoreFailures() default false;

        /** {@return label filters, all of which must hold: {@code "key=value"}, {@code "key"} (present), {@code "!key"} (absent); they become the webhook's {@code objectSelector} too} */
        String[] labels() default {};

        /** {@return annotation filters, as {@link #labels()}} */
        String[] annotations() default {};

        /** {@return predicates on the handler's context that must all hold; classes with a no-argument constructor} */
        Class<? extends Filter>[] when() default {};

        /** {@return a dotted field path such as {@code spec.size} that the object must have (or {@link #fieldValue()}); the id is then {@code method/field}} */
        String field() default "";

        /** {@return the value the field must have: a JSON or plain value, {@link Filter#PRESENT} or {@link Filter#ABSENT}} */
        String fieldValue() default "";
    }

    /**
     * A mutating admission handler (Kopf's {@code @kopf.on.mutate}): what it puts into its
     * {@link Patch} is applied to the object before it is stored (sent to the API server as a JSON
     * Patch computed against the object); throwing rejects the operation as for {@link Validate}.
     * For deletions, it is called only if its {@link #operations()} are {@code DELETE} alone. The
     * same parameters as {@link Validate}.
     *
     * <pre>{@code
     * @On.Mutate("kopfexamples")
     * public void setDefaults(Spec spec, Patch patch) {
     *     if (spec.get("size") == null) {
     *         patch.spec().put("size", 1);
     *     }
     * }
     * }</pre>
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Mutate {
        /** {@return the resource selector: one to three strings, as described on {@link On}; empty with {@link #selector()}} */
        String[] value() default {};

        /** {@return the resources as a predicate instead (Kopf's callable selector): any group and version, never Events} */
        Class<? extends ResourceMatcher> selector() default ResourceMatcher.class;

        /** {@return the handler id; by default the method name: it names the handler's webhook (its URL's last segment)} */
        String id() default "";

        /** {@return a value passed to the handler as its {@code param} parameter (Kopf's {@code param=})} */
        String param() default "";

        /** {@return the operations its webhook is registered for: {@code CREATE}, {@code UPDATE}, {@code DELETE}, {@code CONNECT}; none: all} */
        String[] operations() default {};

        /** {@return the subresource it is for ({@code status}, {@code scale}; {@code *} for any); empty: the main resource} */
        String subresource() default "";

        /** {@return whether its webhook stays in the managed configurations when the operator exits} */
        boolean persistent() default false;

        /** {@return whether the handler has side effects: its webhook says {@code NoneOnDryRun} instead of {@code None}} */
        boolean sideEffects() default false;

        /** {@return whether the API server lets the request through when the webhook fails ({@code failurePolicy: Ignore})} */
        boolean ignoreFailures() default false;

        /** {@return label filters, all of which must hold: {@code "key=value"}, {@code "key"} (present), {@code "!key"} (absent); they become the webhook's {@code objectSelector} too} */
        String[] labels() default {};

        /** {@return annotation filters, as {@link #labels()}} */
        String[] annotations() default {};

        /** {@return predicates on the handler's context that must all hold; classes with a no-argument constructor} */
        Class<? extends Filter>[] when() default {};

        /** {@return a dotted field path such as {@code spec.size} that the object must have (or {@link #fieldValue()}); the id is then {@code method/field}} */
        String field() default "";

        /** {@return the value the field must have: a JSON or plain value, {@link Filter#PRESENT} or {@link Filter#ABSENT}} */
        String fieldValue() default "";
    }

    /**
     * Converts a custom resource between two versions of its kind, for the API server's conversion
     * webhook (Kopf has none; kubebuilder's hub and spoke): the method takes the object in one
     * version and returns it in another, as the classes of the two versions, each with fabric8's
     * {@code @Group} and {@code @Version}. The storage version (the one class with
     * {@code @Version(storage = true)}) is the hub: every other served version converts to it and
     * from it, and kopf4j goes through the hub between two others. The start fails if a direction
     * is missing. kopf4j copies the metadata (only labels and annotations may change), keeps the
     * fields the source class does not know, and keeps what the other version cannot hold in the
     * annotation {@code kopf4j.dev/conversion-data}, so that a round trip loses nothing. An exception
     * is the API server's error for that request ({@code conversion webhook for ... failed: <message>}).
     * Served by {@code settings.admission.server}, at {@code {base}/convert/<plural>.<group>}; see
     * docs/versions.md.
     *
     * <pre>{@code
     * @On.Convert
     * public v1.Widget up(v1alpha1.Widget old) {
     *     v1.Widget widget = new v1.Widget();
     *     widget.setSpec(new v1.Widget.Spec(old.getSpec().size() + "Gi"));
     *     return widget;
     * }
     *
     * @On.Convert
     * public v1alpha1.Widget down(v1.Widget hub) {
     *     v1alpha1.Widget widget = new v1alpha1.Widget();
     *     widget.setSpec(new v1alpha1.Widget.Spec(Integer.parseInt(hub.getSpec().size().replace("Gi", ""))));
     *     return widget;
     * }
     * }</pre>
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Convert {
    }
}
