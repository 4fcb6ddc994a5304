package io.kopf4j.internal.intents;

import io.kopf4j.HandlerContext;
import java.time.Instant;
import java.util.Map;

/**
 * Why handlers are called for an object now: Kopf's causes, one type per kind of handler. A
 * {@link ChangingCause} carries the reason and the essential diff for change-detecting handlers; an
 * {@link UnchangingCause} no change: a {@link WatchingCause} the raw event for event handlers, a
 * {@link SpawningCause} one event for the filters of daemons and timers, a {@link DaemonCause} what
 * they see for their whole life; a {@link WebhookCause} one admission request. Filters see a cause
 * itself, before any handler's attempt.
 */
public sealed interface Cause extends HandlerContext permits ChangingCause, UnchangingCause, WebhookCause {
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

    /** Only event handlers see a raw event. */
    @Override
    default String type() {
        return null;
    }

    /** Only event handlers see a raw event. */
    @Override
    default Map<String, Object> event() {
        return null;
    }
}
