package io.kopf4j.internal.intents;

import io.kopf4j.Body;
import io.kopf4j.Diff;
import io.kopf4j.Memo;
import io.kopf4j.Patch;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import java.util.Map;
import org.slf4j.Logger;

/**
 * Kopf's changing cause: an object's essence compared with the last handled one, for create,
 * update, delete, resume and field handlers.
 *
 * @param resource the object's resource
 * @param raw the object's body as plain JSON maps
 * @param body the read-only view of {@code raw} given to handlers
 * @param patch the changes to send after the handlers
 * @param logger the object's posting logger
 * @param memo the object's memo
 * @param reason why: create, update, delete, resume (handlers run), or noop, free, gone (logged only)
 * @param initial first sight of the object since the operator started, not a creation: resume handlers run
 * @param deleting the object has a deletionTimestamp
 * @param diff the essential diff since the last handling
 * @param old the last handled essence, or null
 * @param current the current essence
 */
public record ChangingCause(Resource resource, Map<String, Object> raw, Body body, Patch patch, Logger logger, Memo memo,
                            Reason reason, boolean initial, boolean deleting, Diff diff, Map<String, Object> old,
                            Map<String, Object> current) implements Cause {
}
