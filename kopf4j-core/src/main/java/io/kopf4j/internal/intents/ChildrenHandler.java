package io.kopf4j.internal.intents;

import io.kopf4j.ErrorsMode;
import io.kopf4j.HandlerFn;
import java.time.Duration;

/**
 * A children handler ({@code @Children}): returns the complete set of an object's children, which
 * the children engine applies, prunes and watches; run again when the object's essence or one of
 * its children changes, retried as a timer is.
 *
 * @param id the handler id
 * @param errors what an arbitrary exception means, or null for the default
 * @param timeout the time from the first attempt after which it gives up, or null
 * @param retries the attempts after which it gives up, or null
 * @param backoff the delay before a retry, or null for the default
 * @param param the value passed as the handler's {@code param}, or null
 * @param filters which parents it is for, beyond the resource
 * @param selector the parents' resource
 * @param function the bound handler
 * @param origin where it was declared, for messages
 * @param options its {@code kinds} and {@code resources} (the children's kinds, each watched) and
 *                {@code readyCondition} (the parent's condition kept true while all children are ready)
 */
public record ChildrenHandler(String id, ErrorsMode errors, Duration timeout, Integer retries, Duration backoff,
                              Object param, Filters filters, ResourceSelector selector, HandlerFn function,
                              String origin, KindOptions options) implements ExecutableHandler {
    /** Kopf's log lines name handlers {@code Handler 'id'}. */
    @Override
    public String title() {
        return "Handler '" + id + "'";
    }
}
