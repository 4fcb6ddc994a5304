package io.kopf4j.intents;

import io.kopf4j.Body;
import io.kopf4j.Diff;
import io.kopf4j.HandlerContext;
import io.kopf4j.Memo;
import io.kopf4j.Patch;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import java.time.Instant;
import java.util.Map;
import org.slf4j.Logger;

/**
 * Why handlers are called for an object now: Kopf's causes. A changing cause has a reason and the
 * essential diff; a watching cause (for event handlers) has the raw event instead.
 *
 * @param resource the object's resource
 * @param raw the object's body as plain JSON maps
 * @param body the read-only view of {@code raw} given to handlers
 * @param patch the changes to send after the handlers
 * @param logger the object's logger
 * @param memo the object's memo
 * @param reason the changing reason; null for a watching cause
 * @param initial first sight of the object since the operator started (resume handlers run)
 * @param deleting the object has a deletionTimestamp
 * @param diff the essential diff since the last handling (empty for watching causes)
 * @param old the last handled essence, or null
 * @param current the current essence
 * @param type the raw event's type (watching causes)
 * @param event the raw event (watching causes)
 */
public record Cause(Resource resource, Map<String, Object> raw, Body body, Patch patch, Logger logger, Memo memo,
                    Reason reason, boolean initial, boolean deleting, Diff diff, Map<String, Object> old,
                    Map<String, Object> current, String type, Map<String, Object> event) implements HandlerContext {
    /** Filters see the cause itself, which belongs to no handler. */
    @Override
    public Object param() {
        return null;
    }

    /** Filters see the cause before any attempt. */
    @Override
    public int retry() {
        return 0;
    }

    @Override
    public Instant started() {
        return null;
    }
}
