package io.kopf4j.internal.intents;

import io.kopf4j.ErrorsMode;
import io.kopf4j.HandlerFn;
import io.kopf4j.Reason;
import java.time.Duration;
import java.util.List;

/**
 * A handler of object changes, with Kopf's semantics: {@code reason} null means any reason (field
 * handlers); {@code initial} marks resume handlers, which run only on an object's first sight after
 * a start; a non-optional delete handler requires the finalizer.
 *
 * @param id the handler id: where its result and progress are stored
 * @param reason the cause it reacts to, or null for any
 * @param initial a resume handler
 * @param deleted a resume handler that also runs for objects being deleted
 * @param requiresFinalizer the object may not go before this handler ran
 * @param field the field whose change it reacts to (dotted path split), or null
 * @param errors what arbitrary exceptions mean
 * @param timeout give up after this long, or null
 * @param retries give up after this many attempts, or null
 * @param backoff the delay after an arbitrary exception, or null for the default
 * @param param the value passed as the handler's {@code param}, or null
 * @param filters which objects and changes it is for
 * @param selector the resource it is for
 * @param function the bound handler
 * @param origin where it was declared, e.g. {@code Example.create(Spec)}, for messages
 */
public record ChangingHandler(String id, Reason reason, boolean initial, boolean deleted, boolean requiresFinalizer,
                              List<String> field, ErrorsMode errors, Duration timeout, Integer retries,
                              Duration backoff, Object param, Filters filters, ResourceSelector selector,
                              HandlerFn function, String origin) implements ExecutableHandler {
    /** Whether this handler is among those a cause of this reason calls. */
    public boolean reactsTo(Reason cause, boolean causeInitial, boolean deleting) {
        if (reason != null && reason != cause) {
            return false;
        }
        if (initial && !causeInitial) {
            return false;
        }
        return !(initial && deleting && !deleted);
    }

    /** Update and field handlers with a field run only when that field changed. */
    public boolean fieldNeedsChange() {
        return field != null && (reason == null || reason == Reason.UPDATE) && !initial;
    }
}
