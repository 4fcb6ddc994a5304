package io.kopf4j;

import io.kopf4j.HandlerDescription.Option;
import java.util.Objects;

/**
 * An operator-level handler registered without annotations (Kopf's activities): the same kinds
 * and options as {@link On.Startup}, {@link On.Cleanup}, {@link On.Login} and {@link On.Probe}: errors,
 * timeout, retries, backoff and param, with the same rules as for all handlers.
 *
 * <pre>{@code
 * Operator.builder()
 *     .activity(Activity.startup("tune").handle(context -> {
 *         context.settings().execution.defaultBackoff = Duration.ofSeconds(10);
 *         return null;
 *     }))
 *     .activity(Activity.login("vault-token").handle(context ->
 *         ConnectionInfo.builder(server).caPath(caFile).token(tokens.fetch()).build()))
 *     .activity(Activity.login("vault").errors(ErrorsMode.PERMANENT).param("secret/operator")
         .handle(context -> vaultLogin((String) context.param())))
     .activity(Activity.probe("now").handle(context -> Instant.now().toString()))
 *     ...
 * }</pre>
 */
public final class Activity {
    private final HandlerDescription description;
    private final ActivityFn function;

    private Activity(HandlerDescription description, ActivityFn function) {
        this.description = description;
        this.function = function;
    }

    /** {@return what the builder declared: kopf4j checks it and makes the handler when it is registered} */
    public HandlerDescription description() {
        return description;
    }

    /** {@return what the handler does} */
    public ActivityFn function() {
        return function;
    }

    /**
     * Runs before the operator watches anything; the operator starts when all have finished, and
     * not at all if one of them failed for good (an {@link ActivityError}).
     *
     * @param id the handler's id, required
     * @return the builder of the handler's options
     */
    public static Builder startup(String id) {
        return new Builder(HandlerKind.STARTUP, id);
    }

    /**
     * Runs when the operator stops gracefully.
     *
     * @param id the handler's id, required
     * @return the builder of the handler's options
     */
    public static Builder cleanup(String id) {
        return new Builder(HandlerKind.CLEANUP, id);
    }

    /**
     * Returns the credentials to the cluster; re-run when the API rejects them (HTTP 401).
     *
     * @param id the handler's id, required
     * @return the builder of the handler's options
     */
    public static Builder login(String id) {
        return new Builder(HandlerKind.LOGIN, id);
    }

    /**
     * Reports its result in the liveness endpoint's JSON, under its id.
     *
     * @param id the handler's id, required
     * @return the builder of the handler's options
     */
    public static Builder probe(String id) {
        return new Builder(HandlerKind.PROBE, id);
    }

    /**
     * The options of one activity handler ({@link ExecutionOptions}: errors, timeout, retries,
     * backoff, param); {@link #handle(ActivityFn)} completes it.
     */
    public static final class Builder extends ExecutionOptions<Builder> {
        private Builder(HandlerKind kind, String id) {
            super(kind);
            add(new Option.Id(id));
        }

        /**
         * Completes the activity handler.
         *
         * @param function what the handler does
         * @return the handler, for {@link Operator.Builder#activity(Activity...)}, which checks its options
         */
        public Activity handle(ActivityFn function) {
            return new Activity(describe(), Objects.requireNonNull(function, "function"));
        }
    }
}
