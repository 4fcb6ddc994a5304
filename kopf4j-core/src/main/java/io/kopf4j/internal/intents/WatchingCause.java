package io.kopf4j.internal.intents;

import io.kopf4j.Body;
import io.kopf4j.Memo;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import java.util.Map;
import org.slf4j.Logger;

/**
 * Kopf's watching cause: one raw watch event, for event handlers, which have no state, no diff and
 * no reason.
 *
 * @param resource the object's resource
 * @param raw the object's body as plain JSON maps
 * @param body the read-only view of {@code raw} given to handlers
 * @param patch the changes to send after the handlers
 * @param logger the object's local logger: event handlers' lines never become Kubernetes Events
 * @param memo the object's memo
 * @param type {@code ADDED}, {@code MODIFIED}, {@code DELETED}, or null for an object of the initial listing
 * @param event the raw event: {@code type} and {@code object}
 */
public record WatchingCause(Resource resource, Map<String, Object> raw, Body body, Patch patch, Logger logger, Memo memo,
                            String type, Map<String, Object> event) implements UnchangingCause {
}
