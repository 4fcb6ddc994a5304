package io.kopf4j.intents;

import io.kopf4j.Reason;
import java.util.Locale;

/**
 * What a handler reacts to, as both front-ends name it: Kopf's {@code @kopf.on.*} decorators for
 * objects, daemons and timers, admission webhooks, sub-handlers, and the operator's activities.
 */
public enum HandlerKind {
    CREATE, UPDATE, DELETE, RESUME, FIELD, EVENT, INDEX, DAEMON, TIMER, VALIDATE, MUTATE, SUBHANDLER, STARTUP, CLEANUP,
    LOGIN, PROBE;

    /** The reason a changing handler of this kind is limited to, or null for any (resume, field). */
    Reason reason() {
        return switch (this) {
            case CREATE -> Reason.CREATE;
            case UPDATE -> Reason.UPDATE;
            case DELETE -> Reason.DELETE;
            default -> null;
        };
    }

    /** Kopf's activity name ({@link ActivityHandler#STARTUP} ...), or null for handlers of objects. */
    public String activity() {
        return switch (this) {
            case STARTUP -> ActivityHandler.STARTUP;
            case CLEANUP -> ActivityHandler.CLEANUP;
            case LOGIN -> ActivityHandler.AUTHENTICATION;
            case PROBE -> ActivityHandler.PROBE;
            default -> null;
        };
    }

    /** Admission handlers: {@code @On.Validate} and {@code @On.Mutate} (Kopf's {@code @kopf.on.validate}, {@code mutate}). */
    public boolean admission() {
        return this == VALIDATE || this == MUTATE;
    }

    /** How origins and messages write the kind: {@code create}, {@code field}, {@code startup}. */
    String written() {
        return name().toLowerCase(Locale.ROOT);
    }
}
