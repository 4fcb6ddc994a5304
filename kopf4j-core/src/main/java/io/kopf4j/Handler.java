package io.kopf4j;

import io.kopf4j.HandlerDescription.Option;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

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
    private final HandlerDescription description;
    private final HandlerFn function;

    private Handler(HandlerDescription description, HandlerFn function) {
        this.description = description;
        this.function = function;
    }

    /** {@return what the builder declared: kopf4j checks it and makes the handler when it is registered} */
    public HandlerDescription description() {
        return description;
    }

    /** {@return what the handler does} */
    public HandlerFn function() {
        return function;
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

    /**
     * A daemon (Kopf's {@code @kopf.daemon}): a long-running call per object, on its own virtual
     * thread, stopped through its {@link HandlerContext#stopped() stop flag}; see {@link Daemon}.
     *
     * <pre>{@code
     * Handler.daemon("kopfexamples").id("monitor").cancellationBackoff(Duration.ofSeconds(1))
     *         .handle(context -> {
     *             while (!context.stopped().isSet()) {
     *                 context.logger().info("field={}", context.spec().get("field"));
     *                 context.stopped().await(Duration.ofSeconds(10));
     *             }
     *             return null;
     *         });
     * }</pre>
     *
     * @param resource the resource selector, as in the {@link On} annotations
     * @return the builder of the daemon's options
     */
    public static DaemonBuilder daemon(String... resource) {
        return new DaemonBuilder(resource);
    }

    /**
     * A timer (Kopf's {@code @kopf.timer}): a call per interval per object, never overlapping
     * itself; see {@link Timer}.
     *
     * <pre>{@code
     * Handler.timer("kopfexamples").id("ping").interval(Duration.ofSeconds(10)).idle(Duration.ofMinutes(10))
     *         .handle(context -> Map.of("pinged", Instant.now().toString()));
     * }</pre>
     *
     * @param resource the resource selector, as in the {@link On} annotations
     * @return the builder of the timer's options
     */
    public static TimerBuilder timer(String... resource) {
        return new TimerBuilder(resource);
    }

    /**
     * A children handler: returns all the children of an object, which kopf4j applies, prunes,
     * watches and keeps in line; see {@link Children}.
     *
     * <pre>{@code
     * Handler.children("databases").id("children").kinds(StatefulSet.class, Service.class).readyCondition("Ready")
     *         .handle(context -> List.of(statefulSet(context.spec()), service(context.name())));
     * }</pre>
     *
     * @param resource the parents' resource selector, as in the {@link On} annotations
     * @return the builder of the handler's options
     */
    public static ChildrenBuilder children(String... resource) {
        return new ChildrenBuilder(resource);
    }

    /**
     * An indexing function (Kopf's {@code @kopf.index}): its id names the index, which handlers get
     * as a parameter of that name or through {@link HandlerContext#index(String)}; see {@link Indexer}.
     *
     * <pre>{@code
     * Handler.index("pods").id("podsByApp").label("app")
     *         .handle(context -> Map.of(context.labels().get("app"), context.name()));
     * }</pre>
     *
     * @param resource the resource selector, as in the {@link On} annotations
     * @return the builder of the function's options
     */
    public static Builder index(String... resource) {
        return new Builder(HandlerKind.INDEX, resource);
    }

    /**
     * A validating admission handler (Kopf's {@code @kopf.on.validate}); see {@link On.Validate}.
     *
     * <pre>{@code
     * Handler.validate("kopfexamples").id("check-size").operations("CREATE", "UPDATE")
     *         .handle(context -> {
     *             if (context.spec().getInt("size", 0) > 100) throw new AdmissionError("Size must be <= 100");
     *             return null;
     *         });
     * }</pre>
     *
     * @param resource the resource selector, as in the {@link On} annotations
     * @return the builder of the handler's options
     */
    public static AdmissionBuilder validate(String... resource) {
        return new AdmissionBuilder(HandlerKind.VALIDATE, resource);
    }

    /**
     * A mutating admission handler (Kopf's {@code @kopf.on.mutate}); see {@link On.Mutate}.
     *
     * <pre>{@code
     * Handler.mutate("kopfexamples").id("defaults")
     *         .handle(context -> { context.patch().spec().put("size", 1); return null; });
     * }</pre>
     *
     * @param resource the resource selector, as in the {@link On} annotations
     * @return the builder of the handler's options
     */
    public static AdmissionBuilder mutate(String... resource) {
        return new AdmissionBuilder(HandlerKind.MUTATE, resource);
    }

    /** The options of one handler ({@link HandlerOptions}, and its id); {@link #handle(HandlerFn)} completes it. */
    public static final class Builder extends HandlerOptions<Builder> {
        private Builder(HandlerKind kind, String[] resource) {
            super(kind, resource);
        }

        /**
         * The handler id (required): it names {@code status.<id>} and the progress record, so it must
         * stay the same across restarts.
         *
         * @param handlerId the id, e.g. {@code "create"}
         * @return this builder
         */
        public Builder id(String handlerId) {
            return add(new Option.Id(handlerId));
        }

        /**
         * Delete handlers: best effort, without a finalizer, so the object may be gone before the
         * handler runs.
         *
         * @return this builder
         */
        public Builder optional() {
            return add(new Option.NotBlocking());
        }

        /**
         * Resume handlers: also for objects that are already being deleted.
         *
         * @return this builder
         */
        public Builder deleted() {
            return add(new Option.AlsoDeleted());
        }

        /**
         * Completes the handler.
         *
         * @param function what the handler does; its result goes to {@code status.<id>}
         * @return the handler, for {@link Operator.Builder#handler(Handler...)}, which checks its options
         */
        public Handler handle(HandlerFn function) {
            return complete(describe(), function);
        }
    }

    private static Handler complete(HandlerDescription description, HandlerFn function) {
        return new Handler(description, Objects.requireNonNull(function, "function"));
    }

    /** The options of a daemon ({@link HandlerOptions}, its id, and the stopping options); see {@link Daemon}. */
    public static final class DaemonBuilder extends HandlerOptions<DaemonBuilder> {
        private DaemonBuilder(String[] resource) {
            super(HandlerKind.DAEMON, resource);
        }

        /**
         * The daemon id (required): it names {@code status.<id>} for its results.
         *
         * @param handlerId the id, e.g. {@code "monitor"}
         * @return this builder
         */
        public DaemonBuilder id(String handlerId) {
            return add(new Option.Id(handlerId));
        }

        /**
         * Waits this long after the object is first seen before starting.
         *
         * @param delay the wait, e.g. {@code Duration.ofSeconds(30)}
         * @return this builder
         */
        public DaemonBuilder initialDelay(Duration delay) {
            return add(new Option.InitialDelay(delay));
        }

        /**
         * Waits as long as the function says for the object (Kopf's callable {@code initial_delay}),
         * asked once when the object is first seen: e.g. a random delay that spreads the starts after
         * a restart ({@link DelayFn}). Excludes a fixed {@code initialDelay(Duration)}.
         *
         * @param delay gives the wait for the object from its handler context; null or not positive: none
         * @return this builder
         */
        public DaemonBuilder initialDelay(Function<HandlerContext, Duration> delay) {
            return add(new Option.ComputedInitialDelay(delay));
        }

        /**
         * How long a stopped daemon may take to exit on its own before it is cancelled.
         *
         * @param delay the grace period after the stop flag is set, e.g. {@code Duration.ofSeconds(10)}
         * @return this builder
         */
        public DaemonBuilder cancellationBackoff(Duration delay) {
            return add(new Option.CancellationBackoff(delay));
        }

        /**
         * How long after the cancellation the daemon is abandoned; unset: never cancelled nor abandoned.
         *
         * @param limit the time from the cancellation to the abandonment, e.g. {@code Duration.ofMinutes(1)}
         * @return this builder
         */
        public DaemonBuilder cancellationTimeout(Duration limit) {
            return add(new Option.CancellationTimeout(limit));
        }

        /**
         * How often a daemon that has not exited yet is reported; unset:
         * {@code settings.background.cancellationPolling}.
         *
         * @param period the time between two reports of a daemon still running, e.g. {@code Duration.ofSeconds(5)}
         * @return this builder
         */
        public DaemonBuilder cancellationPolling(Duration period) {
            return add(new Option.CancellationPolling(period));
        }

        /**
         * Completes the daemon.
         *
         * @param function what the daemon does, until its stop flag is set
         * @return the handler, for {@link Operator.Builder#handler(Handler...)}, which checks its options
         */
        public Handler handle(HandlerFn function) {
            return complete(describe(), function);
        }
    }

    /** The options of a timer ({@link HandlerOptions}, its id, interval, sharpness, idling); see {@link Timer}. */
    public static final class TimerBuilder extends HandlerOptions<TimerBuilder> {
        private TimerBuilder(String[] resource) {
            super(HandlerKind.TIMER, resource);
        }

        /**
         * The timer id (required): it names {@code status.<id>} for its results.
         *
         * @param handlerId the id, e.g. {@code "heartbeat"}
         * @return this builder
         */
        public TimerBuilder id(String handlerId) {
            return add(new Option.Id(handlerId));
        }

        /**
         * The time from the end of one run to the start of the next.
         *
         * @param period the time between runs, e.g. {@code Duration.ofSeconds(60)}
         * @return this builder
         */
        public TimerBuilder interval(Duration period) {
            return add(new Option.Interval(period));
        }

        /**
         * Keeps the runs on a grid of the interval from their starts.
         *
         * @return this builder
         */
        public TimerBuilder sharp() {
            return add(new Option.Sharp());
        }

        /**
         * Runs only after the object has had no essential change for this long.
         *
         * @param quiet the time without essential changes, e.g. {@code Duration.ofMinutes(5)}
         * @return this builder
         */
        public TimerBuilder idle(Duration quiet) {
            return add(new Option.Idle(quiet));
        }

        /**
         * Waits this long after the object is first seen before the first run.
         *
         * @param delay the wait, e.g. {@code Duration.ofSeconds(30)}
         * @return this builder
         */
        public TimerBuilder initialDelay(Duration delay) {
            return add(new Option.InitialDelay(delay));
        }

        /**
         * Waits as long as the function says for the object (Kopf's callable {@code initial_delay}),
         * asked once when the object is first seen: e.g. a random delay that spreads the starts after
         * a restart ({@link DelayFn}). Excludes a fixed {@code initialDelay(Duration)}.
         *
         * @param delay gives the wait for the object from its handler context; null or not positive: none
         * @return this builder
         */
        public TimerBuilder initialDelay(Function<HandlerContext, Duration> delay) {
            return add(new Option.ComputedInitialDelay(delay));
        }

        /**
         * Completes the timer.
         *
         * @param function what each run does; its result goes to {@code status.<id>}
         * @return the handler, for {@link Operator.Builder#handler(Handler...)}, which checks its options
         */
        public Handler handle(HandlerFn function) {
            return complete(describe(), function);
        }
    }

    /** The options of a children handler ({@link HandlerOptions}, its id, its children's kinds, its ready condition); see {@link Children}. */
    public static final class ChildrenBuilder extends HandlerOptions<ChildrenBuilder> {
        private ChildrenBuilder(String[] resource) {
            super(HandlerKind.CHILDREN, resource);
        }

        /**
         * The handler id (required).
         *
         * @param handlerId the id, e.g. {@code "children"}
         * @return this builder
         */
        public ChildrenBuilder id(String handlerId) {
            return add(new Option.Id(handlerId));
        }

        /**
         * The kinds of the children, as fabric8 types: each is watched.
         *
         * @param types e.g. {@code Deployment.class, Service.class}
         * @return this builder
         */
        @SafeVarargs
        public final ChildrenBuilder kinds(Class<? extends io.fabric8.kubernetes.api.model.HasMetadata>... types) {
            return add(new Option.ChildKinds(java.util.Arrays.asList(types)));
        }

        /**
         * The kinds of the children, as resource selectors: each is watched.
         *
         * @param selectors e.g. {@code "cronjobs.batch"}
         * @return this builder
         */
        public ChildrenBuilder resources(String... selectors) {
            return add(new Option.ChildResources(java.util.Arrays.asList(selectors)));
        }

        /**
         * The parent's condition kept true while all its children are ready.
         *
         * @param type the condition's type, e.g. {@code "Ready"}
         * @return this builder
         */
        public ChildrenBuilder readyCondition(String type) {
            return add(new Option.ReadyCondition(type));
        }

        /**
         * Completes the handler.
         *
         * @param function returns all the object's children
         * @return the handler, for {@link Operator.Builder#handler(Handler...)}, which checks its options
         */
        public Handler handle(HandlerFn function) {
            return complete(describe(), function);
        }
    }

    /**
     * The options of an admission handler: its id, param and filters ({@link HandlerOptions}; the
     * execution options errors, timeout, retries and backoff are refused: admission handlers are
     * never retried), and its webhook's options.
     */
    public static final class AdmissionBuilder extends HandlerOptions<AdmissionBuilder> {
        private AdmissionBuilder(HandlerKind kind, String[] resource) {
            super(kind, resource);
        }

        /**
         * The handler id (required): it names the handler's webhook and is its URL's last segment.
         *
         * @param handlerId the id, e.g. {@code "check-spec"}
         * @return this builder
         */
        public AdmissionBuilder id(String handlerId) {
            return add(new Option.Id(handlerId));
        }

        /**
         * The operations its webhook is for: {@code CREATE}, {@code UPDATE}, {@code DELETE}, {@code CONNECT}; unset:
         * all.
         *
         * @param names the operations' names, upper-case, e.g. {@code "CREATE", "UPDATE"}
         * @return this builder
         */
        public AdmissionBuilder operations(String... names) {
            return add(new Option.Operations(java.util.List.of(names)));
        }

        /**
         * The subresource it is for ({@code status}, {@code scale}, {@code *} for any); unset: the main resource.
         *
         * @param name the subresource's name, e.g. {@code "status"}
         * @return this builder
         */
        public AdmissionBuilder subresource(String name) {
            return add(new Option.Subresource(name));
        }

        /**
         * Keeps its webhook in the managed configurations when the operator exits.
         *
         * @return this builder
         */
        public AdmissionBuilder persistent() {
            return add(new Option.Persistent());
        }

        /**
         * Declares side effects: its webhook says {@code NoneOnDryRun} (the handler checks {@code dryrun}).
         *
         * @return this builder
         */
        public AdmissionBuilder sideEffects() {
            return add(new Option.SideEffects());
        }

        /**
         * Lets the API server pass the request when the webhook fails ({@code failurePolicy: Ignore}).
         *
         * @return this builder
         */
        public AdmissionBuilder ignoreFailures() {
            return add(new Option.IgnoreFailures());
        }

        /**
         * Completes the handler.
         *
         * @param function what the handler does: throwing rejects the operation; the result is ignored
         * @return the handler, for {@link Operator.Builder#handler(Handler...)}, which checks its options
         */
        public Handler handle(HandlerFn function) {
            return complete(describe(), function);
        }
    }
}
