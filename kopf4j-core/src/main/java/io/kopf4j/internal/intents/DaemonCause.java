package io.kopf4j.internal.intents;

import io.kopf4j.Body;
import io.kopf4j.DaemonStopped;
import io.kopf4j.Memo;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import java.util.Map;
import org.slf4j.Logger;

/**
 * What a daemon or timer sees for its whole life (Kopf's {@code DaemonCause}): the object's live
 * body, its own patch (a new one for every call), and its stop flag. No reason, diff or event.
 *
 * @param resource the object's resource
 * @param body the object's live view: the latest state seen by the watch
 * @param patch the changes to send after the current call
 * @param logger the object's posting logger
 * @param memo the object's memo
 * @param stopped the stop flag
 */
public record DaemonCause(Resource resource, Body body, Patch patch, Logger logger, Memo memo, DaemonStopped stopped)
        implements UnchangingCause {
    /** {@return the same cause with a fresh patch, for the next call} */
    public DaemonCause with(Patch next) {
        return new DaemonCause(resource, body, next, logger, memo, stopped);
    }

    /** {@return the latest state, as plain maps} */
    @Override
    public Map<String, Object> raw() {
        return body;
    }
}
