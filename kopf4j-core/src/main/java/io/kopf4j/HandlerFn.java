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
    /**
     * Runs the handler.
     *
     * @param context what the handler may use
     * @return the result for {@code status.<id>}, or null for none
     * @throws Exception to be retried or to fail, as the handler's errors mode and the exception's type say
     */
    Object call(HandlerContext context) throws Exception;
}
