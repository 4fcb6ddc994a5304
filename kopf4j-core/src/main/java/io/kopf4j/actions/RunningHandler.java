package io.kopf4j.actions;

import io.kopf4j.HandlerContext;
import io.kopf4j.HandlerFn;
import java.util.Optional;

/**
 * The context of the resource handler that runs on this thread, as Kopf's {@code cause_var}: what
 * the toolkits default to, e.g. the current object as the owner in {@code io.kopf4j.Hierarchies},
 * and the operator's poster of {@code io.kopf4j.Events} (the context's own).
 * Set by {@link Execution} around the sync part of every resource handler (changing handlers, their
 * sub-handlers, event handlers, daemons and timers); activities have no object and see none.
 *
 * <pre>{@code
 * Body owner = RunningHandler.current().map(HandlerContext::body).orElseThrow();
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
     * Calls the handler's function with its context as the {@link #current()} one of this thread.
     * One frame between the execution and the function, as a daemon keeps it on its stack while it runs.
     */
    static Object call(HandlerFn function, HandlerContext context) throws Exception {
        HandlerContext outer = CURRENT.get();
        CURRENT.set(context);
        try {
            return function.call(context);
        } finally {
            CURRENT.set(outer);
        }
    }
}
