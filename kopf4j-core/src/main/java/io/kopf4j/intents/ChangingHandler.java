package io.kopf4j.intents;

import io.kopf4j.Reason;
import java.util.Set;

/**
 * A handler of object changes (create now; update, delete, resume and field handlers follow the
 * same shape).
 *
 * @param id the handler id: where its result and progress are stored
 * @param reasons the causes it reacts to
 * @param selector the resource it is for
 * @param function the bound handler
 * @param origin where it was declared, e.g. {@code Example.create}, for messages
 */
public record ChangingHandler(String id, Set<Reason> reasons, ResourceSelector selector, HandlerFunction function,
                              String origin) {
    public ChangingHandler {
        reasons = Set.copyOf(reasons);
    }
}
