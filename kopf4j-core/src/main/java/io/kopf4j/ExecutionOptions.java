package io.kopf4j;

import io.kopf4j.HandlerDescription.Option;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The options every kind of handler has (Kopf's {@code errors}, {@code timeout}, {@code retries},
 * {@code backoff}, {@code param}), shared by the builders of {@link Handler}, {@link SubHandler} and
 * {@link Activity}: they add to the handler's {@link HandlerDescription}, which kopf4j checks against
 * Kopf's rules when the handler is registered, failing with a message naming the handler.
 *
 * <pre>{@code
 * Activity.startup("warm-up").errors(ErrorsMode.TEMPORARY).retries(5).backoff(Duration.ofSeconds(10))
 *         .timeout(Duration.ofMinutes(2)).handle(context -> warmUp());
 * }</pre>
 *
 * @param <B> the builder that the option methods return, for chaining
 */
public abstract class ExecutionOptions<B extends ExecutionOptions<B>> {
    private final HandlerKind kind;
    private final List<String> resource;
    private final List<Option> options = new ArrayList<>();

    ExecutionOptions(HandlerKind kind, String... resource) {
        this.kind = kind;
        this.resource = List.of(resource);
    }

    /** Adds an option, in order; for the option methods of the builders. */
    @SuppressWarnings("unchecked")
    final B add(Option option) {
        options.add(option);
        return (B) this;
    }

    /** {@return the handler as declared so far} */
    final HandlerDescription describe() {
        return new HandlerDescription(kind, resource, options);
    }

    /**
     * What an arbitrary exception means: retry (the default), give up, or count as done.
     *
     * @param mode e.g. {@link ErrorsMode#PERMANENT} to give up at the first arbitrary exception
     * @return this builder
     */
    public B errors(ErrorsMode mode) {
        return add(new Option.Errors(mode));
    }

    /**
     * Give up (fail permanently) once this long has passed since the first attempt.
     *
     * @param limit the time from the first attempt, e.g. {@code Duration.ofMinutes(10)}
     * @return this builder
     */
    public B timeout(Duration limit) {
        return add(new Option.Timeout(limit));
    }

    /**
     * Give up (fail permanently) after this many attempts.
     *
     * @param attempts the number of attempts, the first one included, e.g. {@code 3}
     * @return this builder
     */
    public B retries(int attempts) {
        return add(new Option.Retries(attempts));
    }

    /**
     * The delay before retrying after an arbitrary exception; by default {@code settings.execution.defaultBackoff}.
     *
     * @param delay the delay, e.g. {@code Duration.ofSeconds(30)}
     * @return this builder
     */
    public B backoff(Duration delay) {
        return add(new Option.Backoff(delay));
    }

    /**
     * A value passed to the handler as its {@code param}: one function can serve several handlers.
     *
     * @param value any object, e.g. {@code "primary"}; the handler gets it as is
     * @return this builder
     */
    public B param(Object value) {
        return add(new Option.Param(value));
    }
}
