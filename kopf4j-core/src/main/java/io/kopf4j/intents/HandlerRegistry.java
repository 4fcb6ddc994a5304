package io.kopf4j.intents;

import io.kopf4j.InvalidHandlerException;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The handlers of one operator. Every operator has its own registry, so several operators in one
 * JVM never see each other's handlers.
 */
public final class HandlerRegistry {
    private final List<ChangingHandler> changing = new ArrayList<>();

    /** Adds a handler; an id already used for the same cause and resource is a startup error. */
    public synchronized void add(ChangingHandler handler) {
        for (ChangingHandler existing : changing) {
            boolean sameCause = existing.reasons().stream().anyMatch(handler.reasons()::contains);
            if (sameCause && existing.id().equals(handler.id()) && existing.selector().equals(handler.selector())) {
                throw new InvalidHandlerException("Handler " + handler.origin() + ": the id '" + handler.id()
                        + "' is already used by " + existing.origin() + "; give one of them another id (id = \"...\")");
            }
        }
        changing.add(handler);
    }

    public synchronized List<ChangingHandler> changingHandlers() {
        return List.copyOf(changing);
    }

    public synchronized boolean isEmpty() {
        return changing.isEmpty();
    }

    /** The distinct selectors of all handlers, in declaration order. */
    public synchronized Set<ResourceSelector> selectors() {
        Set<ResourceSelector> selectors = new LinkedHashSet<>();
        changing.forEach(h -> selectors.add(h.selector()));
        return selectors;
    }

    /** The handlers for a resource and a cause, each id once. */
    public synchronized List<ChangingHandler> handlers(Resource resource, Reason reason) {
        List<ChangingHandler> selected = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (ChangingHandler handler : changing) {
            if (handler.reasons().contains(reason) && handler.selector().matches(resource) && ids.add(handler.id())) {
                selected.add(handler);
            }
        }
        return selected;
    }
}
