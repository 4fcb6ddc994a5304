package io.kopf4j.intents;

import io.kopf4j.HandlerContext;

/**
 * A handler reduced to one call: its parameters already bound. Its result is what goes to
 * {@code status.<id>}; a {@link java.util.concurrent.CompletionStage} is awaited first.
 */
@FunctionalInterface
public interface HandlerFunction {
    Object call(HandlerContext context) throws Exception;
}
