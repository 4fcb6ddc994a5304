package io.kopf4j.internal.intents;

import io.kopf4j.Body;
import io.kopf4j.Memo;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import java.util.Map;
import org.slf4j.Logger;

/**
 * Kopf's spawning cause: one event of an object that has daemons or timers, as their filters see
 * it (and children handlers, which run at such an event), and whether the object changed essentially (which resets the timers' idle time).
 *
 * @param resource the object's resource
 * @param raw the object's body as plain JSON maps, as this event shows it
 * @param body the object's live view, which later events update
 * @param patch the changes to send after this event's processing
 * @param logger the object's posting logger
 * @param memo the object's memo
 * @param reset the essence differs from the last handled one (Kopf's {@code reset=bool(diff)})
 */
public record SpawningCause(Resource resource, Map<String, Object> raw, Body body, Patch patch, Logger logger,
                            Memo memo, boolean reset) implements UnchangingCause {
}
