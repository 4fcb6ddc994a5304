package io.kopf4j;

import java.util.Optional;

/**
 * The context of the resource handler that runs on this thread, as Kopf's {@code cause_var}: what
 * the toolkits default to, e.g. the current object as the owner in
 * {@link io.kopf4j.kits.Hierarchies}, and the operator's poster of {@link Events} (the context's
 * own). kopf4j sets it around the sync part of every resource handler (changing handlers, their
 * sub-handlers, event handlers, daemons and timers); activities have no object and see none.
 *
 * <p>A unit test of handler code that posts {@link Events} or adopts children without naming the
 * owner can run it the same way, with a context of its own:
 *
 * <pre>{@code
 * Body owner = RunningHandler.current().map(HandlerContext::body).orElseThrow();
 *
 * RunningHandler.call(context -> myHandler.create(context.body()), fakeContext);   // in a test
 * }</pre>
 */
public final class RunningHandler {
    // A ThreadLocal, not a ScopedValue: those are final only since Java 25, and kopf4j runs on 21.
    private static final ThreadLocal<HandlerContext> CURRENT = new ThreadLocal<>();

    private RunningHandler() {
    }

    /** {@return the context of the resource handler running on this thread; empty elsewhere} */
    public static Optional<HandlerContext> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /**
     * Calls the handler's function with its context as the {@link #current()} one of this thread,
     * and restores the previous one after. One frame between kopf4j's execution and the function, as
     * a daemon keeps it on its stack while it runs.
     *
     * @param function the handler's function
     * @param context the context it gets, and {@link #current()} while it runs
     * @return the function's result
     * @throws Exception what the function throws
     */
    public static Object call(HandlerFn function, HandlerContext context) throws Exception {
        HandlerContext outer = CURRENT.get();
        CURRENT.set(context);
        try {
            return function.call(context);
        } finally {
            CURRENT.set(outer);
        }
    }
}
