package io.kopf4j.internal.intents;

import io.kopf4j.HandlerFn;

/**
 * A raw-event handler ({@code @On.Event}): called for every watch event, no state, errors ignored.
 *
 * @param id the handler id, naming {@code status.<id>} for its results
 * @param param the value passed as the handler's {@code param}, or null
 * @param filters which objects it is for
 * @param selector the resource it is for
 * @param function the bound handler
 * @param origin where it was declared, for messages
 */
public record WatchingHandler(String id, Object param, Filters filters, ResourceSelector selector, HandlerFn function,
                              String origin) implements ExecutableHandler {
}
