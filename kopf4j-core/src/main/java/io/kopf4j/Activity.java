package io.kopf4j;

import io.kopf4j.intents.ActivityHandler;
import io.kopf4j.intents.HandlerRegistry;
import java.time.Duration;
import java.util.Objects;

/**
 * An operator-level handler registered without annotations (Kopf's activities): the same kinds
 * and options as {@link On.Startup}, {@link On.Cleanup}, {@link On.Login} and {@link On.Probe}.
 *
 * <pre>{@code
 * Operator.builder()
 *     .activity(Activity.startup("tune").handle(context -> {
 *         context.settings().execution.defaultBackoff = Duration.ofSeconds(10);
 *         return null;
 *     }))
 *     .activity(Activity.login("vault-token").handle(context ->
 *         ConnectionInfo.builder(server).caPath(caFile).token(tokens.fetch()).build()))
 *     .activity(Activity.probe("now").handle(context -> Instant.now().toString()))
 *     ...
 * }</pre>
 */
public final class Activity {
    private final ActivityHandler handler;

    private Activity(ActivityHandler handler) {
        this.handler = handler;
    }

    /**
     * Runs before the operator watches anything; the operator starts when all have succeeded.
     *
     * @param id the handler's id, required
     * @return the builder of the handler's options
     * @throws InvalidHandlerException if the id is missing
     */
    public static Builder startup(String id) {
        return new Builder(ActivityHandler.STARTUP, id);
    }

    /**
     * Runs when the operator stops gracefully.
     *
     * @param id the handler's id, required
     * @return the builder of the handler's options
     * @throws InvalidHandlerException if the id is missing
     */
    public static Builder cleanup(String id) {
        return new Builder(ActivityHandler.CLEANUP, id);
    }

    /**
     * Returns the credentials to the cluster; re-run when the API rejects them (HTTP 401).
     *
     * @param id the handler's id, required
     * @return the builder of the handler's options
     * @throws InvalidHandlerException if the id is missing
     */
    public static Builder login(String id) {
        return new Builder(ActivityHandler.AUTHENTICATION, id);
    }

    /**
     * Reports its result in the liveness endpoint's JSON, under its id.
     *
     * @param id the handler's id, required
     * @return the builder of the handler's options
     * @throws InvalidHandlerException if the id is missing
     */
    public static Builder probe(String id) {
        return new Builder(ActivityHandler.PROBE, id);
    }

    void registerIn(HandlerRegistry registry) {
        registry.add(handler);
    }

    /** The options of one activity handler; {@link #handle(ActivityFn)} completes it. */
    public static final class Builder {
        private final String kind;
        private final String id;
        private Integer retries;
        private Duration backoff;

        private Builder(String kind, String id) {
            if (id == null || id.isBlank()) {
                throw new InvalidHandlerException("Activity handlers registered as functions need an id, e.g."
                        + " Activity.startup(\"configure\")");
            }
            this.kind = kind;
            this.id = id;
        }

        /**
         * Give up (failing the activity) after this many attempts; by default never.
         *
         * @param attempts at least 1
         * @return this builder
         * @throws InvalidHandlerException if less than 1
         */
        public Builder retries(int attempts) {
            if (attempts < 1) {
                throw new InvalidHandlerException("Activity '" + id + "': retries must be at least 1, got " + attempts);
            }
            this.retries = attempts;
            return this;
        }

        /**
         * The delay before retrying after an arbitrary exception; by default {@code settings.execution.defaultBackoff}.
         *
         * @param delay not negative
         * @return this builder
         * @throws InvalidHandlerException if negative
         */
        public Builder backoff(Duration delay) {
            if (delay.isNegative()) {
                throw new InvalidHandlerException("Activity '" + id + "': backoff must not be negative, got " + delay);
            }
            this.backoff = delay;
            return this;
        }

        /**
         * Completes the activity handler.
         *
         * @param function what the handler does
         * @return the handler, for {@link Operator.Builder#activity(Activity...)}
         */
        public Activity handle(ActivityFn function) {
            Objects.requireNonNull(function, "function");
            return new Activity(new ActivityHandler(kind, id, retries, backoff, function, "'" + id + "' (" + kind + ")"));
        }
    }
}
