package io.kopf4j.actions;

import io.kopf4j.HandlerContext;
import io.kopf4j.intents.ChangingHandler;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

/**
 * Calls one handler and logs the outcome with Kopf's lines. Sync handlers run on the calling
 * (virtual) thread; an async handler's {@link CompletionStage} is awaited, which parks the
 * virtual thread rather than blocking a platform thread.
 */
public final class Invocation {
    private Invocation() {
    }

    public static Outcome invoke(ChangingHandler handler, HandlerContext context) {
        try {
            Object result = handler.function().call(context);
            if (result instanceof CompletionStage<?> stage) {
                result = await(stage);
            }
            context.logger().info("Handler '{}' succeeded.", handler.id());
            return Outcome.success(result);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.failure(e);
        } catch (Exception e) {
            context.logger().error("Handler '{}' failed with an exception. Will retry.", handler.id(), e);
            return Outcome.failure(e);
        }
    }

    private static Object await(CompletionStage<?> stage) throws Exception {
        try {
            return stage.toCompletableFuture().get();
        } catch (ExecutionException | CompletionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
