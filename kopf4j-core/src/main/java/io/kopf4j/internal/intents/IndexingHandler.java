package io.kopf4j.internal.intents;

import io.kopf4j.ErrorsMode;
import io.kopf4j.HandlerFn;
import java.time.Duration;

/**
 * An indexing function ({@code @Indexer}, Kopf's {@code @kopf.index}): called once per event of
 * every object that passes its filters, never retried; its id names the index.
 *
 * @param id the index id
 * @param errors what arbitrary exceptions mean, or null for {@code IGNORED}
 * @param backoff how long an object is skipped after a temporary error, or null for the operator's default
 * @param param the value passed as the function's {@code param}, or null
 * @param filters which objects it indexes
 * @param selector the resource it indexes
 * @param function the bound function
 * @param origin where it was declared, for messages
 */
public record IndexingHandler(String id, ErrorsMode errors, Duration backoff, Object param, Filters filters,
                              ResourceSelector selector, HandlerFn function, String origin) implements ExecutableHandler {
    /** As Kopf's {@code IndexingHandler}: {@code Indexer 'id'}. */
    @Override
    public String title() {
        return "Indexer '" + id + "'";
    }
}
