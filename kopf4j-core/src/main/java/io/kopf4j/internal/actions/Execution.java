package io.kopf4j.internal.actions;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.AdmissionError;
import io.kopf4j.ErrorsMode;
import io.kopf4j.HandlerFn;
import io.kopf4j.HandlerRetriesError;
import io.kopf4j.HandlerTimeoutError;
import io.kopf4j.Index;
import io.kopf4j.Lifecycle;
import io.kopf4j.Lifecycles;
import io.kopf4j.PermanentError;
import io.kopf4j.RunningHandler;
import io.kopf4j.TemporaryError;
import io.kopf4j.internal.intents.ChangingCause;
import io.kopf4j.internal.intents.ChangingHandler;
import io.kopf4j.internal.intents.ChildrenHandler;
import io.kopf4j.internal.intents.DaemonCause;
import io.kopf4j.internal.intents.ExecutableHandler;
import io.kopf4j.internal.intents.IndexingHandler;
import io.kopf4j.internal.intents.SpawningCause;
import io.kopf4j.internal.intents.SpawningHandler;
import io.kopf4j.internal.intents.TimerHandler;
import io.kopf4j.internal.intents.WatchingCause;
import io.kopf4j.internal.intents.WatchingHandler;
import io.kopf4j.internal.intents.WebhookCause;
import io.kopf4j.internal.intents.WebhookHandler;
import io.kopf4j.internal.logging.EventSink;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.structs.DurationTexts;
import io.kopf4j.storage.ProgressStorage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * Runs handlers once and turns what happened into outcomes, with Kopf's rules
 * ({@code execute_handlers_once}) for every kind of handler alike: changing handlers, their
 * sub-handlers, event handlers and activities. Which of the due handlers run now is the lifecycle's
 * choice; what an exception means is its type's and the handler's errors mode's; a look-ahead fails
 * a handler now if its next attempt would exceed its timeout or retries. Sync handlers run on the
 * calling virtual thread; a returned {@link CompletionStage} is awaited, parking that virtual thread.
 *
 * <p>A Java {@link Error} from a handler is a failure like any exception (its message is stored and
 * logged), a {@link StackOverflowError} included, as Kopf treats Python's {@code RecursionError}:
 * except an {@link OutOfMemoryError}, after which the JVM cannot be trusted, so it is thrown on to
 * stop the operator ({@link io.kopf4j.internal.runtime.OutOfMemory}).
 */
public final class Execution {
    private final Lifecycle lifecycle;
    private final Duration defaultBackoff;
    private final ProgressStorage storage;
    private final Metrics metrics;
    private final Semaphore handlerSlots;
    private final EventSink poster;
    private final KubernetesClient client;
    private final Function<String, Index<?, ?>> indexes;

    /**
     * One attempt of one handler, bound to what it is called for.
     *
     * @param <H> the kind of handler
     */
    @FunctionalInterface
    public interface Invoker<H extends ExecutableHandler> {
        /**
         * Calls the handler once and returns its result.
         *
         * @param state the handler's progress so far (its retries and start)
         * @param subrefs where the ids of the sub-handlers it runs are collected
         */
        Object invoke(H handler, HandlerState state, Set<String> subrefs) throws Exception;
    }

    /**
     * @param lifecycle picks the changing handlers (and sub-handlers) to run in one cycle
     * @param defaultBackoff the delay after an arbitrary exception for handlers without their own
     * @param storage where sub-handlers' progress is kept (the handlers' own is stored by the caller);
     *                null where there are no objects (activities)
     * @param handlerSlots limits how many sync handlers run at once ({@code execution.maxWorkers}), or null
     * @param poster posts the events of {@link io.kopf4j.Events} and {@link io.kopf4j.HandlerContext}; null
     *               for activities, which run through {@link #runOnce} and post none
     * @param client the operator's client for handlers ({@link io.kopf4j.HandlerContext#client()}); null for
     *               activities, which bring their own context
     */
    public Execution(Lifecycle lifecycle, Duration defaultBackoff, ProgressStorage storage, Metrics metrics,
                     Semaphore handlerSlots, EventSink poster, KubernetesClient client) {
        this(lifecycle, defaultBackoff, storage, metrics, handlerSlots, poster, client, id -> {
            throw new IllegalArgumentException("this operator has no index '" + id + "'");
        });
    }

    private Execution(Lifecycle lifecycle, Duration defaultBackoff, ProgressStorage storage, Metrics metrics,
                      Semaphore handlerSlots, EventSink poster, KubernetesClient client,
                      Function<String, Index<?, ?>> indexes) {
        this.indexes = indexes;
        this.lifecycle = lifecycle;
        this.defaultBackoff = defaultBackoff;
        this.storage = storage;
        this.metrics = metrics;
        this.handlerSlots = handlerSlots;
        this.poster = poster;
        this.client = client;
    }

    /**
     * The same execution whose handlers reach the operator's indexes ({@link io.kopf4j.HandlerContext#index}).
     *
     * @param lookup the index of an id; fails for unknown ids
     */
    public Execution withIndexes(Function<String, Index<?, ?>> lookup) {
        return new Execution(lifecycle, defaultBackoff, storage, metrics, handlerSlots, poster, client, lookup);
    }

    /** Runs the due changing handlers the lifecycle picks, and returns their outcomes by id. */
    public Map<String, Outcome> runChanging(List<ChangingHandler> handlers, State state, ChangingCause cause) {
        return runChanging(handlers, state, cause, List.of());
    }

    /** Runs every event handler once; arbitrary exceptions are ignored unless their errors mode says otherwise. */
    public Map<String, Outcome> runWatching(List<WatchingHandler> handlers, WatchingCause cause) {
        return runEachOnce(handlers, cause, WatchingHandler::function, WatchingHandler::param, true, Results::storable);
    }

    /**
     * Runs the indexing functions once each, as Kopf's indexing: never retried, arbitrary exceptions
     * ignored unless their errors mode says otherwise (the caller skips the object after a failure).
     * They run on the watcher's thread and take no handler slot: waiting for one there would stall
     * the watch stream behind long handlers, and the barrier's promise that indexing needs no place.
     */
    public Map<String, Outcome> runIndexing(List<IndexingHandler> handlers, WatchingCause cause) {
        return runEachOnce(handlers, cause, IndexingHandler::function, IndexingHandler::param, false, Function.identity());
    }

    /**
     * Runs the admission handlers of one request once each, all at once, as Kopf's admission: never
     * retried, arbitrary exceptions PERMANENT by default (they reject the request). Each holds a
     * handler slot ({@code execution.maxWorkers}) while it runs, as Kopf's thread pool would.
     */
    public Map<String, Outcome> runWebhooks(List<WebhookHandler> handlers, WebhookCause cause) {
        return runOnce(Lifecycles.allAtOnce(), handlers, State.fromScratch().withHandlers(handlers), cause.logger(),
                ErrorsMode.PERMANENT, (handler, state, subrefs) -> call(handler.function(),
                        InvocationContext.of(cause, null, state, handler.param(), null, poster, client, indexes)));
    }

    /**
     * @param slotted holds a handler slot ({@code execution.maxWorkers}) while the function runs
     * @param results what becomes of a returned value within the attempt: stored JSON, or the index's own value
     */
    private <H extends ExecutableHandler> Map<String, Outcome> runEachOnce(List<H> handlers, WatchingCause cause,
                                                                           Function<H, HandlerFn> function,
                                                                           Function<H, Object> param, boolean slotted,
                                                                           Function<Object, Object> results) {
        return runOnce(Lifecycles.allAtOnce(), handlers, State.fromScratch().withHandlers(handlers), cause.logger(),
                ErrorsMode.IGNORED, (handler, state, subrefs) -> {
                    InvocationContext context = InvocationContext.of(cause, null, state, param.apply(handler), null,
                            poster, client, indexes);
                    return results.apply(slotted ? call(function.apply(handler), context)
                            : awaited(RunningHandler.call(function.apply(handler), context)));
                });
    }

    /**
     * One attempt of a daemon or timer (Kopf's {@code execute_handlers_once} with all handlers at once
     * and errors TEMPORARY by default). A daemon takes no handler slot ({@code execution.maxWorkers}):
     * a slot held for hours would starve the other handlers, as Kopf's shared thread pool does; a
     * timer holds one for its run. A daemon cancelled at its {@code cancellationTimeout} (its future
     * cancelled, or its thread interrupted) logs Kopf's "is cancelled. Will escalate." and ends with a
     * {@link java.util.concurrent.CancellationException}.
     */
    public Map<String, Outcome> runSpawned(SpawningHandler handler, State state, DaemonCause cause) {
        // runOnce's picking for one handler, all at once, without its loop: a daemon keeps the frames
        // of its call on its stack while it runs, each frame ten thousand times for as many daemons.
        HandlerState handlerState = state.get(handler.id());
        if (!handlerState.awakened()) {
            return Map.of();
        }
        return Map.of(handler.id(), attempt(handler, handlerState, cause.logger(), ErrorsMode.TEMPORARY,
                new SpawnedCall(handler, cause)));
    }

    /** {@return the delay after an arbitrary exception for handlers without their own backoff} */
    public Duration defaultBackoff() {
        return defaultBackoff;
    }

    /**
     * One attempt of a children handler ({@code @Children}), retried as a timer is: its outcome's
     * result is what it returned, as it returned it (fabric8 objects included), for the children
     * engine to apply.
     */
    public Outcome runChildren(ChildrenHandler handler, State state, SpawningCause cause) {
        return attempt(handler, state.get(handler.id()), cause.logger(), ErrorsMode.TEMPORARY,
                (children, handlerState, subrefs) -> call(handler.function(),
                        InvocationContext.of(cause, null, handlerState, handler.param(), null, poster, client, indexes)));
    }

    /**
     * The call of a daemon or timer: a class, not a lambda, and an invoker of any handler, not of
     * spawning handlers, which would add a bridge method: one frame less each on every daemon's
     * stack. An interrupt by the engine's cancellation cancels an awaited future, as asyncio
     * cancels a task.
     */
    private final class SpawnedCall implements Invoker<ExecutableHandler> {
        private final SpawningHandler spawned;
        private final DaemonCause cause;

        SpawnedCall(SpawningHandler spawned, DaemonCause cause) {
            this.spawned = spawned;
            this.cause = cause;
        }

        /** Calls {@link #spawned}, the handler the attempt is of. */
        @Override
        public Object invoke(ExecutableHandler handler, HandlerState state, Set<String> subrefs) throws Exception {
            InvocationContext context = InvocationContext.of(cause, null, state, spawned.param(), null, poster,
                    client, indexes);
            Object returned = null;
            try {
                returned = spawned instanceof TimerHandler ? callSync(spawned.function(), context)
                        : RunningHandler.call(spawned.function(), context);
                return Results.storable(awaited(returned));
            } catch (CancellationException e) {
                throw new Cancelled(e);
            } catch (InterruptedException e) {
                if (!cause.stopped().isSet()) {
                    throw e;
                }
                if (returned instanceof CompletionStage<?> stage) {
                    stage.toCompletableFuture().cancel(true);
                }
                Thread.currentThread().interrupt();
                throw new Cancelled(e);
            }
        }
    }

    /** A daemon cancelled while it ran: Kopf lets asyncio's CancelledError escalate past the outcome. */
    private static final class Cancelled extends CancellationException {
        Cancelled(Exception cause) {
            super(cause.getMessage());
            initCause(cause);
        }
    }

    /**
     * Kopf's {@code execute_handlers_once}: the due handlers that the lifecycle picks, each called
     * once, their outcomes by id.
     *
     * @param defaultErrors what arbitrary exceptions mean for handlers without an errors mode
     */
    public <H extends ExecutableHandler> Map<String, Outcome> runOnce(Lifecycle picking, List<H> handlers, State state,
                                                                      Logger logger, ErrorsMode defaultErrors,
                                                                      Invoker<H> invoker) {
        Map<String, H> due = new LinkedHashMap<>();
        for (H handler : handlers) {
            if (state.get(handler.id()).awakened()) {
                due.put(handler.id(), handler);
            }
        }
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        for (String id : picking.select(new ArrayList<>(due.keySet()), state.retries())) {
            H handler = due.get(id);
            if (handler != null) {
                outcomes.put(id, attempt(handler, state.get(id), logger, defaultErrors, invoker));
            }
        }
        return outcomes;
    }

    /** Changing handlers at any depth: {@code subrefContainers} are the ancestors' collections of sub-handler ids. */
    Map<String, Outcome> runChanging(List<ChangingHandler> handlers, State state, ChangingCause cause,
                                     List<Set<String>> subrefContainers) {
        return runOnce(lifecycle, handlers, state, cause.logger(), ErrorsMode.TEMPORARY, (handler, handlerState, subrefs) -> {
            List<Set<String>> containers = new ArrayList<>(subrefContainers);
            containers.add(subrefs);
            SubHandling subhandling = new SubHandling(this, storage, cause, handler, containers);
            Object result = call(handler.function(),
                    InvocationContext.of(cause, handler.field(), handlerState, handler.param(), subhandling, poster, client, indexes));
            subhandling.executeRegistered();
            return Results.storable(result);
        });
    }

    /** Kopf's {@code execute_handler_once}: one attempt, and what it means, timed in the metrics. */
    private <H extends ExecutableHandler> Outcome attempt(H handler, HandlerState state, Logger logger,
                                                          ErrorsMode defaultErrors, Invoker<H> invoker) {
        long started = System.nanoTime();
        String name = handler.title();
        Set<String> subrefs = new TreeSet<>();
        Object result = null;
        Outcome failed = null;
        try {
            logger.debug("{} is invoked.", name);
            if (handler.timeout() != null && state.runtime().compareTo(handler.timeout()) >= 0) {
                throw new HandlerTimeoutError(name + " has timed out after " + DurationTexts.timedelta(state.runtime()) + ".");
            }
            if (handler.retries() != null && state.retries() >= handler.retries()) {
                throw new HandlerRetriesError(name + " has exceeded " + state.retries() + " retries.");
            }
            result = invoker.invoke(handler, state, subrefs);
        } catch (Cancelled e) {
            logger.warn("{} is cancelled. Will escalate.", name);
            throw e;
        } catch (HandlerChildrenRetry e) {
            logger.debug("{} has unfinished sub-handlers. Will retry soon.", name);
            failed = new Outcome(false, null, e, e.delay(), subrefs);
        } catch (TemporaryError e) {
            failed = temporary(handler, state, logger, e, subrefs);
        } catch (HandlerTimeoutError | HandlerRetriesError e) {
            logger.error(e.getMessage());
            failed = new Outcome(true, null, e, null, subrefs);
        } catch (PermanentError e) {
            if (e instanceof AdmissionError && handler instanceof WebhookHandler) {
                // A webhook's refusal is its handler doing its job: Kopf's words, but not an ERROR to alert on.
                logger.info("{} failed permanently: {}", name, HandlerState.messageOf(e));
            } else {
                logger.error("{} failed permanently: {}", name, HandlerState.messageOf(e));
            }
            failed = new Outcome(true, null, e, null, subrefs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed = new Outcome(false, null, e, Duration.ZERO, subrefs);
        } catch (OutOfMemoryError e) {
            throw e;   // nothing allocates here: the operator's stop says it once (OutOfMemory)
        } catch (Exception | Error e) {
            failed = arbitrary(handler, state, logger, defaultErrors, e, subrefs);
        }
        Outcome outcome = failed;
        if (outcome == null) {
            if (handler instanceof WebhookHandler || handler instanceof ChildrenHandler) {
                // The API server calls webhooks at every request of every change (dry runs, reinvocations,
                // the operator's own patches), and children handlers run at every change of a child: their
                // successes are routine, their failures are not (the children engine logs what it writes).
                logger.debug("{} succeeded.", name);
            } else {
                logger.info("{} succeeded.", name);
            }
            outcome = new Outcome(true, result, null, null, subrefs);
        }
        metrics.handler(handler.id(), classify(outcome), Duration.ofNanos(System.nanoTime() - started));
        return outcome;
    }

    /** A TemporaryError: retried after its delay, unless the look-ahead says the next attempt is too late. */
    private static Outcome temporary(ExecutableHandler handler, HandlerState state, Logger logger, TemporaryError e,
                                     Set<String> subrefs) {
        String name = handler.title();
        String message = HandlerState.messageOf(e);
        if (wouldTimeOut(handler, state, e.delay())) {
            String text = name + " failed temporarily but will time out after " + DurationTexts.seconds(handler.timeout())
                    + " seconds: " + message;
            logger.error(text);
            return new Outcome(true, null, new HandlerTimeoutError(text), null, subrefs);
        }
        if (wouldExceedRetries(handler, state)) {
            String text = name + " failed temporarily but will exceed " + handler.retries() + " retries: " + message;
            logger.error(text);
            return new Outcome(true, null, new HandlerRetriesError(text), null, subrefs);
        }
        logger.error("{} failed temporarily: {}", name, message);
        return new Outcome(false, null, e, e.delay(), subrefs);
    }

    /** Any other exception (or Error): the handler's errors mode decides; the stack trace is logged. */
    private Outcome arbitrary(ExecutableHandler handler, HandlerState state, Logger logger, ErrorsMode defaultErrors,
                              Throwable e, Set<String> subrefs) {
        String name = handler.title();
        String message = HandlerState.messageOf(e);
        ErrorsMode errors = handler.errors() == null ? defaultErrors : handler.errors();
        Duration backoff = handler.backoff() == null ? defaultBackoff : handler.backoff();
        String text;
        Outcome outcome;
        if (errors == ErrorsMode.IGNORED) {
            text = name + " failed with an exception and will ignore it: " + message;
            outcome = new Outcome(true, null, null, null, subrefs);
        } else if (errors == ErrorsMode.TEMPORARY && wouldTimeOut(handler, state, backoff)) {
            text = name + " failed with an exception and will stop now (it would time out in "
                    + DurationTexts.seconds(handler.timeout()) + " seconds on the next attempt): " + message;
            outcome = new Outcome(true, null, new HandlerTimeoutError(text), null, subrefs);
        } else if (errors == ErrorsMode.TEMPORARY && wouldExceedRetries(handler, state)) {
            text = name + " failed with an exception and will stop now (it would exceed "
                    + handler.retries() + " retries on the next attempt): " + message;
            outcome = new Outcome(true, null, new HandlerRetriesError(text), null, subrefs);
        } else if (errors == ErrorsMode.TEMPORARY) {
            text = name + " failed with an exception and will try again in " + DurationTexts.seconds(backoff)
                    + " seconds: " + message;
            outcome = new Outcome(false, null, e, backoff, subrefs);
        } else {
            text = name + " failed with an exception and will stop now: " + message;
            outcome = new Outcome(true, null, e, null, subrefs);
        }
        logger.error(text, e);
        return outcome;
    }

    /** The outcome as the metrics name it: success, temporary, permanent, or exception. */
    private static String classify(Outcome outcome) {
        Throwable error = outcome.error();
        if (error == null) {
            return "success";
        }
        if (error instanceof TemporaryError) {
            return "temporary";
        }
        return error instanceof PermanentError ? "permanent" : "exception";
    }

    private static boolean wouldTimeOut(ExecutableHandler handler, HandlerState state, Duration delay) {
        return handler.timeout() != null && state.runtime().plus(delay).compareTo(handler.timeout()) >= 0;
    }

    private static boolean wouldExceedRetries(ExecutableHandler handler, HandlerState state) {
        return handler.retries() != null && state.retries() + 1 >= handler.retries();
    }

    /**
     * The sync part holds a slot, if limited, and finds its own context ({@link RunningHandler}, and
     * through it the poster of {@link io.kopf4j.Events}) on its thread; awaiting a returned
     * CompletionStage does neither.
     */
    private Object call(HandlerFn function, InvocationContext context) throws Exception {
        return awaited(callSync(function, context));
    }

    /** The sync part of a call: what the function returns, a CompletionStage not yet awaited. */
    private Object callSync(HandlerFn function, InvocationContext context) throws Exception {
        Object result;
        if (handlerSlots == null) {
            result = RunningHandler.call(function, context);
        } else {
            handlerSlots.acquire();
            try {
                result = RunningHandler.call(function, context);
            } finally {
                handlerSlots.release();
            }
        }
        return result;
    }

    /** A returned CompletionStage's value, its failure thrown as the handler's own (Errors included). */
    static Object awaited(Object result) throws Exception {
        if (result instanceof CompletionStage<?> stage) {
            try {
                return stage.toCompletableFuture().get();
            } catch (ExecutionException | CompletionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof Error error) {
                    throw error;
                }
                throw cause instanceof Exception exception ? exception : e;
            }
        }
        return result;
    }
}
