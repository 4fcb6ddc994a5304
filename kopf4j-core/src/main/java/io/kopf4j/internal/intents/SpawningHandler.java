package io.kopf4j.internal.intents;

import io.kopf4j.HandlerFn;

/**
 * A handler that runs beside an object for as long as it exists and matches (Kopf's spawning
 * handlers): a {@link DaemonHandler} or a {@link TimerHandler}. Both require the finalizer while
 * they run and see the object's latest state.
 */
public sealed interface SpawningHandler extends ExecutableHandler permits DaemonHandler, TimerHandler {
    /** {@return the value passed as the handler's {@code param}, or null} */
    Object param();

    /** {@return which objects it is for, beyond the resource} */
    Filters filters();

    /** {@return the resource it is for} */
    ResourceSelector selector();

    /** {@return the bound handler} */
    HandlerFn function();

    /** {@return where it was declared, for messages} */
    String origin();

    /** {@return its options: the delay before the first call, and those of its kind} */
    KindOptions options();
}
