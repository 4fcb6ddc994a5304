package io.kopf4j;

import java.time.Duration;
import java.util.Objects;

/**
 * The options every kind of handler has (Kopf's {@code errors}, {@code timeout}, {@code retries},
 * {@code backoff}, {@code param}), shared by the builders of {@link Handler}, {@link SubHandler} and
 * {@link Activity}. Each option is checked when it is set, and a bad value fails with a message
 * naming the handler.
 *
 * @param <B> the builder that the option methods return, for chaining
 */
public abstract class ExecutionOptions<B extends ExecutionOptions<B>> {
    ErrorsMode errors;
    Duration timeout;
    Integer retries;
    Duration backoff;
    Object param;

    ExecutionOptions() {
    }

    /** How error messages name the handler being built, e.g. {@code Activity 'login'}. */
    abstract String describe();

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** What an arbitrary exception means: retry (the default), give up, or count as done. */
    public B errors(ErrorsMode mode) {
        this.errors = Objects.requireNonNull(mode, "errors");
        return self();
    }

    /** Give up (fail permanently) once this long has passed since the first attempt. */
    public B timeout(Duration limit) {
        if (limit.isNegative() || limit.isZero()) {
            throw new InvalidHandlerException(describe() + ": timeout must be positive, got " + limit);
        }
        this.timeout = limit;
        return self();
    }

    /** Give up (fail permanently) after this many attempts. */
    public B retries(int attempts) {
        if (attempts < 1) {
            throw new InvalidHandlerException(describe() + ": retries must be at least 1, got " + attempts);
        }
        this.retries = attempts;
        return self();
    }

    /** The delay before retrying after an arbitrary exception; by default {@code settings.execution.defaultBackoff}. */
    public B backoff(Duration delay) {
        if (delay.isNegative()) {
            throw new InvalidHandlerException(describe() + ": backoff must not be negative, got " + delay);
        }
        this.backoff = delay;
        return self();
    }

    /** A value passed to the handler as its {@code param}: one function can serve several handlers. */
    public B param(Object value) {
        this.param = value;
        return self();
    }
}
