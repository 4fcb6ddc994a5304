package io.kopf4j.internal.watching;

import java.util.Map;
import java.util.function.Consumer;

/**
 * Takes out of each watched object what no handler and none of Kopf's state uses, before it is
 * queued, processed and kept: {@code metadata.managedFields}, the API server's bookkeeping of
 * server-side apply (which manager set which field, with timestamps). It is often the largest part
 * of a small object's metadata, so without it every queued event, every body kept for daemons and
 * every object of a big listing costs less; the object on the server keeps it, and a patch never
 * touches it. A handler that reads it turns this off: {@code settings.watching.keepManagedFields}.
 * (controller-runtime offers the same as its cache's {@code TransformStripManagedFields}.)
 *
 * <pre>{@code
 * Consumer<WatchEvent> sink = LeanBodies.before(queues::dispatch);
 * }</pre>
 */
public final class LeanBodies {
    private LeanBodies() {
    }

    /** A sink that strips each event's object, then passes the event on. */
    public static Consumer<WatchEvent> before(Consumer<WatchEvent> downstream) {
        return event -> {
            strip(event.object());
            downstream.accept(event);
        };
    }

    /** Removes what is not needed from the body, in place. */
    static void strip(Map<String, Object> body) {
        if (body.get("metadata") instanceof Map<?, ?> metadata) {
            metadata.remove("managedFields");
        }
    }
}
