package io.kopf4j.internal.reactor.processing;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.clients.ApiRequest;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.selection.Selection;
import io.kopf4j.internal.watching.WatchEvent;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a deletion from a departure, for a resource watched through a server-side selection: the
 * API server sends {@code DELETED} both for an object deleted and for one that merely left the
 * selection (relabelled; or missing from a re-listing, see {@code SelectedObjects}), and nothing in
 * the event tells which. A read of the object by name does: gone, or another object under the same
 * name (another uid), and it was a deletion; there still, and it left. A departed object is then
 * processed as it is now, outside the selection, where no handler's filters match it (its daemons
 * stop, the finalizer goes) and forgotten after that, as it will send no more events. An object
 * that came back into the selection meanwhile is processed as a change.
 *
 * <pre>{@code
 * SelectionExits exits = SelectionExits.reading(client, pods, selection, settings);
 * SelectionExits.Confirmed confirmed = exits.confirm(event);
 * }</pre>
 */
public final class SelectionExits {
    private static final Logger LOG = LoggerFactory.getLogger(SelectionExits.class);
    private static final int NOT_FOUND = 404;

    /** A resource watched whole: a {@code DELETED} is a deletion. */
    public static final SelectionExits NONE = new SelectionExits(null, event -> null);

    private final Selection selection;
    private final Function<WatchEvent, Map<String, Object>> reader;

    /**
     * @param selection the resource's selection, or null
     * @param reader the object named by an event as the API server has it now, or null if it has none
     *               of that name; throws if it cannot tell
     */
    SelectionExits(Selection selection, Function<WatchEvent, Map<String, Object>> reader) {
        this.selection = selection;
        this.reader = reader;
    }

    /**
     * Reads the objects with the operator's client, retried as its other requests are.
     *
     * @param selection the resource's selection, or null for {@link #NONE}
     */
    public static SelectionExits reading(KubernetesClient client, Resource resource, Selection selection,
                                         OperatorSettings settings) {
        if (selection == null) {
            return NONE;
        }
        ApiRetries retries = ApiRetries.of(settings);
        return new SelectionExits(selection, event -> {
            try {
                return retries.get(ApiRequest.object(client, resource, event.namespace(), event.name()), LOG);
            } catch (KubernetesClientException e) {
                if (e.getCode() == NOT_FOUND) {
                    return null;
                }
                throw e;
            }
        });
    }

    /**
     * What a {@code DELETED} event turned out to be.
     *
     * @param event the event to process: the deletion as it came, or the object's current state
     * @param departed the object is there, outside the selection: forget it once processed
     */
    record Confirmed(WatchEvent event, boolean departed) {
    }

    /** The event to process in place of this one: only a selected resource's {@code DELETED} is read again. */
    Confirmed confirm(WatchEvent event) {
        if (selection == null || !event.isDeleted()) {
            return new Confirmed(event, false);
        }
        Map<String, Object> current;
        try {
            current = reader.apply(event);
        } catch (RuntimeException e) {
            ObjectLogger.local(event.object()).error("Cannot tell whether the object was deleted or left the selection"
                    + " ({}); it is forgotten as deleted: {}", selection, e.toString());
            return new Confirmed(event, false);
        }
        if (current == null || !sameUid(event.object(), current)) {
            return new Confirmed(event, false);
        }
        boolean departed = !selection.matches(current);
        if (departed) {
            ObjectLogger.local(current).info("The object left the watched selection ({}): its handlers serve it no more.",
                    selection);
        }
        return new Confirmed(new WatchEvent("MODIFIED", current), departed);
    }

    private static boolean sameUid(Map<String, Object> before, Map<String, Object> now) {
        Object uid = uidOf(before);
        return uid == null || uid.equals(uidOf(now));
    }

    private static Object uidOf(Map<String, Object> body) {
        return body.get("metadata") instanceof Map<?, ?> metadata ? metadata.get("uid") : null;
    }
}
