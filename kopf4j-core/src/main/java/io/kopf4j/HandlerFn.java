package io.kopf4j;

/**
 * A handler as a function, for registering handlers without annotations. Its result goes to
 * {@code status.<id>}; a returned {@link java.util.concurrent.CompletionStage} is awaited first.
 *
 * <pre>{@code
 * HandlerFn create = context -> Map.of("message", "hello " + context.name());
 * }</pre>
 */
@FunctionalInterface
public interface HandlerFn {
    Object call(HandlerContext context) throws Exception;
}
