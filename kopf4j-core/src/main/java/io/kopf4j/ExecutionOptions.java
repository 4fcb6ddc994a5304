package io.kopf4j;

import io.kopf4j.intents.HandlerSpec;
import java.time.Duration;

/**
 * The options every kind of handler has (Kopf's {@code errors}, {@code timeout}, {@code retries},
 * {@code backoff}, {@code param}), shared by the builders of {@link Handler}, {@link SubHandler} and
 * {@link Activity}: they fill the handler's {@link HandlerSpec}, which checks each option when it is
 * set and fails with a message naming the handler.
 *
 * <pre>{@code
 * Activity.startup("warm-up").errors(ErrorsMode.TEMPORARY).retries(5).backoff(Duration.ofSeconds(10))
 *         .timeout(Duration.ofMinutes(2)).handle(context -> warmUp());
 * }</pre>
 *
 * @param <B> the builder that the option methods return, for chaining
 */
public abstract class ExecutionOptions<B extends ExecutionOptions<B>> {
    /** The handler's specification, which checks each option and builds the handler. */
    final HandlerSpec spec;

    ExecutionOptions(HandlerSpec spec) {
        this.spec = spec;
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /**
     * What an arbitrary exception means: retry (the default), give up, or count as done.
     *
     * @param mode e.g. {@link ErrorsMode#PERMANENT} to give up at the first arbitrary exception
     * @return this builder
     */
    public B errors(ErrorsMode mode) {
        spec.errors(mode);
        return self();
    }

    /**
     * Give up (fail permanently) once this long has passed since the first attempt.
     *
     * @param limit the time from the first attempt, e.g. {@code Duration.ofMinutes(10)}
     * @return this builder
     */
    public B timeout(Duration limit) {
        spec.timeout(limit);
        return self();
    }

    /**
     * Give up (fail permanently) after this many attempts.
     *
     * @param attempts the number of attempts, the first one included, e.g. {@code 3}
     * @return this builder
     */
    public B retries(int attempts) {
        spec.retries(attempts);
        return self();
    }

    /**
     * The delay before retrying after an arbitrary exception; by default {@code settings.execution.defaultBackoff}.
     *
     * @param delay the delay, e.g. {@code Duration.ofSeconds(30)}
     * @return this builder
     */
    public B backoff(Duration delay) {
        spec.backoff(delay);
        return self();
    }

    /**
     * A value passed to the handler as its {@code param}: one function can serve several handlers.
     *
     * @param value any object, e.g. {@code "primary"}; the handler gets it as is
     * @return this builder
     */
    public B param(Object value) {
        spec.param(value);
        return self();
    }
}
