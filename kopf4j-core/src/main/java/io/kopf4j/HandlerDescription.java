package io.kopf4j;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a builder of {@link Handler}, {@link SubHandler} or {@link Activity} declared: the kind, the
 * resource selector as written, and the options in the order they were given. It is a description
 * only: kopf4j checks it against Kopf's rules and makes the handler when it is registered
 * ({@link Operator.Builder#handler(Handler...)}, {@link Operator.Builder#activity(Activity...)},
 * {@link HandlerContext#register(SubHandler)}), and an {@link InvalidHandlerException} then names
 * the handler and the rule, exactly as for an annotated method.
 *
 * <pre>{@code
 * Handler handler = Handler.update("kopfexamples").id("resize").field("spec.size").retries(3)
 *         .handle(context -> null);
 * handler.description().options();   // [Id[id=resize], Field[path=spec.size], Retries[attempts=3]]
 * }</pre>
 *
 * @param kind what the handler reacts to
 * @param resource the resource selector as written: none for activities and sub-handlers
 * @param options the options, in the order the builder got them
 */
public record HandlerDescription(HandlerKind kind, List<String> resource, List<Option> options) {
    /**
     * A description; the lists are copied.
     *
     * @param kind what the handler reacts to
     * @param resource the resource selector as written
     * @param options the options in order
     */
    public HandlerDescription {
        Objects.requireNonNull(kind, "kind");
        resource = List.copyOf(resource);
        options = List.copyOf(options);
    }

    /**
     * One option of a handler, as its builder method got it; the options of {@link ExecutionOptions},
     * {@link HandlerOptions} and the builders of {@link Handler}.
     *
     * <pre>{@code
     * new HandlerDescription.Option.Retries(3);   // from .retries(3)
     * }</pre>
     */
    public sealed interface Option {
        /**
         * From {@code id(...)}.
         *
         * @param id the handler's id
         */
        record Id(String id) implements Option { }

        /**
         * From {@code field(...)}.
         *
         * @param path the dotted field path
         */
        record Field(String path) implements Option { }

        /**
         * From {@code value(...)}.
         *
         * @param condition the field's value in any state
         */
        record Value(Condition condition) implements Option { }

        /**
         * From {@code old(...)}.
         *
         * @param condition the field's value before the change
         */
        record Old(Condition condition) implements Option { }

        /**
         * From {@code current(...)}.
         *
         * @param condition the field's value after the change
         */
        record Current(Condition condition) implements Option { }

        /**
         * From {@code label(...)}, {@code labelPresent(...)} and {@code labelAbsent(...)}.
         *
         * @param key the label's key
         * @param condition what its value must be
         */
        record Label(String key, Condition condition) implements Option { }

        /**
         * From {@code annotation(...)}, {@code annotationPresent(...)} and {@code annotationAbsent(...)}.
         *
         * @param key the annotation's key
         * @param condition what its value must be
         */
        record Annotation(String key, Condition condition) implements Option { }

        /**
         * From {@code when(...)}.
         *
         * @param filter what the object must pass
         */
        record When(Filter filter) implements Option { }

        /**
         * The resources as a predicate instead of names (Kopf's callable selector): the handler's
         * resource is then given by nothing else.
         *
         * @param matcher decides for each served resource
         */
        record Selector(ResourceMatcher matcher) implements Option { }

        /**
         * From {@code errors(...)}.
         *
         * @param mode what an arbitrary exception means
         */
        record Errors(ErrorsMode mode) implements Option { }

        /**
         * From {@code timeout(...)}.
         *
         * @param limit the time from the first attempt
         */
        record Timeout(Duration limit) implements Option { }

        /**
         * From {@code retries(...)}.
         *
         * @param attempts the number of attempts
         */
        record Retries(int attempts) implements Option { }

        /**
         * From {@code backoff(...)}.
         *
         * @param delay the delay before a retry
         */
        record Backoff(Duration delay) implements Option { }

        /**
         * From {@code param(...)}.
         *
         * @param value the handler's {@code param}
         */
        record Param(Object value) implements Option { }

        /** A delete handler that does not block the deletion, from {@code optional()}. */
        record NotBlocking() implements Option { }

        /** The handler also runs for objects being deleted, from {@code deleted()}. */
        record AlsoDeleted() implements Option { }

        /**
         * From {@code initialDelay(Duration)}.
         *
         * @param delay the fixed delay before a daemon or timer starts
         */
        record InitialDelay(Duration delay) implements Option { }

        /**
         * From {@code initialDelay(Function)}.
         *
         * @param delay the delay computed per object
         */
        record ComputedInitialDelay(Function<HandlerContext, Duration> delay) implements Option { }

        /**
         * From {@code cancellationBackoff(...)}.
         *
         * @param delay how long a daemon has to stop by itself
         */
        record CancellationBackoff(Duration delay) implements Option { }

        /**
         * From {@code cancellationTimeout(...)}.
         *
         * @param limit how long a stopping daemon is waited for
         */
        record CancellationTimeout(Duration limit) implements Option { }

        /**
         * From {@code cancellationPolling(...)}.
         *
         * @param period how often a stopping daemon is checked
         */
        record CancellationPolling(Duration period) implements Option { }

        /**
         * From {@code interval(...)}.
         *
         * @param period the timer's interval
         */
        record Interval(Duration period) implements Option { }

        /** The timer runs on the interval's grid, from {@code sharp()}. */
        record Sharp() implements Option { }

        /**
         * From {@code idle(...)}.
         *
         * @param quiet how long the object stays unchanged before the timer runs
         */
        record Idle(Duration quiet) implements Option { }

        /**
         * From {@code operations(...)}.
         *
         * @param names the admission operations
         */
        record Operations(List<String> names) implements Option {
            /**
             * The operations, copied.
             *
             * @param names the operations
             */
            public Operations {
                names = List.copyOf(names);
            }
        }

        /**
         * From {@code subresource(...)}.
         *
         * @param name the subresource the webhook serves
         */
        record Subresource(String name) implements Option { }

        /**
         * From {@code kinds(...)}.
         *
         * @param types the children's fabric8 types
         */
        record ChildKinds(List<Class<? extends io.fabric8.kubernetes.api.model.HasMetadata>> types) implements Option {
            /**
             * The types, copied.
             *
             * @param types the types
             */
            public ChildKinds {
                types = List.copyOf(types);
            }
        }

        /**
         * From {@code resources(...)}.
         *
         * @param selectors the children's resource selectors, e.g. {@code "cronjobs.batch"}
         */
        record ChildResources(List<String> selectors) implements Option {
            /**
             * The selectors, copied.
             *
             * @param selectors the selectors
             */
            public ChildResources {
                selectors = List.copyOf(selectors);
            }
        }

        /**
         * From {@code readyCondition(...)}.
         *
         * @param type the parent's condition kept true while all its children are ready
         */
        record ReadyCondition(String type) implements Option { }

        /** The webhook configuration is kept when the operator stops, from {@code persistent()}. */
        record Persistent() implements Option { }

        /** The webhook has side effects, from {@code sideEffects()}. */
        record SideEffects() implements Option { }

        /** The API server ignores the webhook's failures, from {@code ignoreFailures()}. */
        record IgnoreFailures() implements Option { }
    }
}
