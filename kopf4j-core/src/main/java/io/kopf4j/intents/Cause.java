package io.kopf4j.intents;

import io.kopf4j.HandlerContext;
import java.time.Instant;
import java.util.Map;

/**
 * Why handlers are called for an object now: Kopf's causes, one type per kind of handler. A
 * {@link ChangingCause} carries the reason and the essential diff for change-detecting handlers; a
 * {@link WatchingCause} the raw event for event handlers; the daemon and admission causes to come
 * join them. Filters see a cause itself, before any handler's attempt.
 */
public sealed interface Cause extends HandlerContext permits ChangingCause, WatchingCause {
    /** The object's body as plain JSON maps. */
    Map<String, Object> raw();

    /** A cause belongs to no handler: filters see no {@code param}. */
    @Override
    default Object param() {
        return null;
    }

    /** Filters see the cause before any attempt. */
    @Override
    default int retry() {
        return 0;
    }

    @Override
    default Instant started() {
        return null;
    }
}
