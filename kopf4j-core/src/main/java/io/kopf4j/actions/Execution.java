package io.kopf4j.actions;

import io.kopf4j.ErrorsMode;
import io.kopf4j.HandlerRetriesError;
import io.kopf4j.HandlerTimeoutError;
import io.kopf4j.Lifecycle;
import io.kopf4j.PermanentError;
import io.kopf4j.TemporaryError;
import io.kopf4j.engines.EventPoster;
import io.kopf4j.engines.Metrics;
import io.kopf4j.intents.Cause;
import io.kopf4j.intents.ChangingHandler;
import io.kopf4j.HandlerFn;
import io.kopf4j.intents.Filters;
import io.kopf4j.intents.WatchingHandler;
import io.kopf4j.storage.ProgressStorage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;

/**
 * Runs handlers once and turns what happened into outcomes, with Kopf's rules: which of the due
 * handlers run now (the lifecycle), what an exception means (its type and the handler's errors
 * mode), and the look-ahead that fails a handler now if its next attempt would exceed its timeout
 * or retries. Sync handlers run on the calling virtual thread; a returned {@link CompletionStage}
 * is awaited, parking that virtual thread.
 */
public final class Execution {
    private final Lifecycle lifecycle;
    private final Duration defaultBackoff;
    private final ProgressStorage storage;
    private final Metrics metrics;
    private final Semaphore handlerSlots;
    private final EventPoster poster;

    /** Unfinished sub-handlers: the parent is retried, with less logging than a failure. */
    private static final class ChildrenRetry extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ChildrenRetry() {
            super("unfinished sub-handlers", null, false, false);
        }
    }

    /**
     * @param storage where sub-handlers' progress is kept (the handlers' own is stored by the caller)
     * @param handlerSlots limits how many sync handlers run at once ({@code execution.maxWorkers}), or null
     * @param poster posts the events of {@link io.kopf4j.Events} and {@link io.kopf4j.HandlerContext}
     */
    public Execution(Lifecycle lifecycle, Duration defaultBackoff, ProgressStorage storage, Metrics metrics,
                     Semaphore handlerSlots, EventPoster poster) {
        this.lifecycle = lifecycle;
        this.defaultBackoff = defaultBackoff;
        this.storage = storage;
        this.metrics = metrics;
        this.handlerSlots = handlerSlots;
        this.poster = poster;
    }

    /** Runs the due handlers the lifecycle picks, and returns their outcomes by id. */
    public Map<String, Outcome> runChanging(List<ChangingHandler> handlers, State state, Cause cause) {
        Map<String, ChangingHandler> due = new LinkedHashMap<>();
        for (ChangingHandler handler : handlers) {
            if (state.get(handler.id()).awakened()) {
                due.put(handler.id(), handler);
            }
        }
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        for (String id : lifecycle.select(new ArrayList<>(due.keySet()), state.retries())) {
            ChangingHandler handler = due.get(id);
            if (handler != null) {
                long started = System.nanoTime();
                Outcome outcome = runChanging(handler, state.get(id), cause);
                metrics.handler(id, classify(outcome), Duration.ofNanos(System.nanoTime() - started));
                outcomes.put(id, outcome);
            }
        }
        return outcomes;
    }

    /** Runs every event handler; their failures are logged and ignored. */
    public Map<String, Outcome> runWatching(List<WatchingHandler> handlers, Cause cause) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        for (WatchingHandler handler : handlers) {
            InvocationContext context = InvocationContext.of(cause, null, null, null, handler.param(), poster);
            try {
                Object result = call(handler.function(), context);
                cause.logger().info("Handler '{}' succeeded.", handler.id());
                outcomes.put(handler.id(), Outcome.success(result));
            } catch (Exception e) {
                cause.logger().error("Handler '{}' failed with an exception and will ignore it: {}", handler.id(),
                        HandlerState.messageOf(e), e);
                outcomes.put(handler.id(), new Outcome(true, null, null, null, Set.of()));
            }
        }
        return outcomes;
    }

    private Outcome runChanging(ChangingHandler handler, HandlerState state, Cause cause) {
        Logger logger = cause.logger();
        String name = "Handler '" + handler.id() + "'";
        ErrorsMode errors = handler.errors() == null ? ErrorsMode.TEMPORARY : handler.errors();
        Duration backoff = handler.backoff() == null ? defaultBackoff : handler.backoff();
        try {
            logger.debug("{} is invoked.", name);
            if (handler.timeout() != null && state.runtime().compareTo(handler.timeout()) >= 0) {
                throw new HandlerTimeoutError(name + " has timed out after " + seconds(state.runtime()) + " seconds.");
            }
            if (handler.retries() != null && state.retries() >= handler.retries()) {
                throw new HandlerRetriesError(name + " has exceeded " + state.retries() + " retries.");
            }
            InvocationContext context = InvocationContext.of(cause, handler.field(), state, handler.id(), handler.param(),
                    poster);
            Object result = call(handler.function(), context);
            Set<String> subrefs = Set.of();
            if (!context.subhandlers().isEmpty()) {
                Outcome children = runSubhandlers(handler, context.subhandlers(), cause);
                if (!children.finished()) {
                    logger.debug("{} has unfinished sub-handlers. Will retry soon.", name);
                    return children;
                }
                subrefs = children.subrefs();
            }
            logger.info("{} succeeded.", name);
            return new Outcome(true, result, null, null, subrefs);
        } catch (HandlerTimeoutError | HandlerRetriesError e) {
            logger.error(e.getMessage());
            return Outcome.failure(e);
        } catch (TemporaryError e) {
            String message = HandlerState.messageOf(e);
            if (wouldTimeOut(handler, state, e.delay())) {
                String text = name + " failed temporarily but will time out after " + seconds(handler.timeout()) + " seconds: " + message;
                logger.error(text);
                return Outcome.failure(new HandlerTimeoutError(text));
            }
            if (wouldExceedRetries(handler, state)) {
                String text = name + " failed temporarily but will exceed " + handler.retries() + " retries: " + message;
                logger.error(text);
                return Outcome.failure(new HandlerRetriesError(text));
            }
            logger.error("{} failed temporarily: {}", name, message);
            return Outcome.retry(e, e.delay());
        } catch (PermanentError e) {
            logger.error("{} failed permanently: {}", name, HandlerState.messageOf(e));
            return Outcome.failure(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.retry(e, Duration.ZERO);
        } catch (Exception e) {
            String message = HandlerState.messageOf(e);
            return switch (errors) {
                case IGNORED -> {
                    logger.error("{} failed with an exception and will ignore it: {}", name, message, e);
                    yield Outcome.success(null);
                }
                case PERMANENT -> {
                    logger.error("{} failed with an exception and will stop now: {}", name, message, e);
                    yield Outcome.failure(e);
                }
                case TEMPORARY -> {
                    if (wouldTimeOut(handler, state, backoff)) {
                        String text = name + " failed with an exception and will stop now (it would time out in "
                                + seconds(handler.timeout()) + " seconds on the next attempt): " + message;
                        logger.error(text, e);
                        yield Outcome.failure(new HandlerTimeoutError(text));
                    }
                    if (wouldExceedRetries(handler, state)) {
                        String text = name + " failed with an exception and will stop now (it would exceed "
                                + handler.retries() + " retries on the next attempt): " + message;
                        logger.error(text, e);
                        yield Outcome.failure(new HandlerRetriesError(text));
                    }
                    logger.error("{} failed with an exception. Will retry.", name, e);
                    yield Outcome.retry(e, backoff);
                }
            };
        }
    }

    /**
     * Runs the sub-handlers a handler registered, as Kopf's {@code kopf.execute}: with their own
     * progress records and the same lifecycle; the parent is finished when they all are.
     */
    private Outcome runSubhandlers(ChangingHandler parent, Map<String, HandlerFn> registered, Cause cause) {
        List<ChangingHandler> children = new ArrayList<>();
        registered.forEach((id, function) -> children.add(new ChangingHandler(id, cause.reason(), false, false, false,
                null, null, null, null, null, parent.param(), Filters.NONE, parent.selector(), function,
                parent.origin() + " sub-handler " + id)));
        State state = State.fromStorage(cause.raw(), storage, children)
                .withPurpose(String.valueOf(cause.reason()), List.of()).withHandlers(children);
        Map<String, Outcome> outcomes = runChanging(children, state, cause);
        state = state.withOutcomes(outcomes);
        state.store(cause.raw(), cause.patch(), storage);
        outcomes.forEach((id, outcome) -> {
            if (outcome.succeeded()) {
                Results.deliver(cause.patch(), id, outcome.result());
            }
        });
        Set<String> subrefs = new TreeSet<>(registered.keySet());
        for (String id : registered.keySet()) {
            subrefs.addAll(state.get(id).subrefs());
        }
        if (state.done()) {
            return new Outcome(true, null, null, null, subrefs);
        }
        Duration delay = state.delays().stream().min(Duration::compareTo).orElse(Duration.ZERO);
        return new Outcome(false, null, new ChildrenRetry(), delay, subrefs);
    }

    /** The outcome as the metrics name it: success, temporary, permanent, or exception. */
    private static String classify(Outcome outcome) {
        Throwable error = outcome.error();
        if (error == null) {
            return "success";
        }
        if (error instanceof TemporaryError || error instanceof ChildrenRetry) {
            return "temporary";
        }
        return error instanceof PermanentError ? "permanent" : "exception";
    }

    private static boolean wouldTimeOut(ChangingHandler handler, HandlerState state, Duration delay) {
        return handler.timeout() != null && state.runtime().plus(delay).compareTo(handler.timeout()) >= 0;
    }

    private static boolean wouldExceedRetries(ChangingHandler handler, HandlerState state) {
        return handler.retries() != null && state.retries() + 1 >= handler.retries();
    }

    /**
     * The sync part holds a slot, if limited, and finds the poster for {@link io.kopf4j.Events} on
     * its thread; awaiting a returned CompletionStage does neither.
     */
    private Object call(HandlerFn function, InvocationContext context) throws Exception {
        Object result;
        if (handlerSlots == null) {
            result = poster.within(() -> function.call(context));
        } else {
            handlerSlots.acquire();
            try {
                result = poster.within(() -> function.call(context));
            } finally {
                handlerSlots.release();
            }
        }
        if (result instanceof CompletionStage<?> stage) {
            try {
                return stage.toCompletableFuture().get();
            } catch (ExecutionException | CompletionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }
        return result;
    }

    private static String seconds(Duration duration) {
        return String.format(java.util.Locale.ROOT, "%s", duration.toMillis() / 1000.0);
    }
}
