package io.kopf4j.internal.intents;

import io.kopf4j.InvalidHandlerException;
import io.kopf4j.Resource;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The handlers of one operator, and Kopf's rules for which of them a cause calls. Every operator
 * has its own registry, so several operators in one JVM never see each other's handlers.
 */
public final class HandlerRegistry {
    private final List<ChangingHandler> changing = new ArrayList<>();
    private final List<WatchingHandler> watching = new ArrayList<>();
    private final List<ActivityHandler> activities = new ArrayList<>();
    private final List<SpawningHandler> spawning = new ArrayList<>();
    private final List<IndexingHandler> indexing = new ArrayList<>();
    private final List<WebhookHandler> webhooks = new ArrayList<>();
    private final List<ChildrenHandler> children = new ArrayList<>();
    private final List<ConversionHandler> conversions = new ArrayList<>();
    private final Set<DeclaredPermission> permissions = new LinkedHashSet<>();
    /** Which objects the watched handlers serve at all: every object, unless a server-side selection narrows it. */
    private volatile ObjectScope scope = ObjectScope.EVERY_OBJECT;

    /**
     * Which objects of a resource the operator serves: those of its server-side selection
     * ({@code settings.watching.labelSelectors}), or all.
     *
     * <pre>{@code
     * registry.serveOnly(Selections.of(settings.watching)::serves);
     * }</pre>
     */
    @FunctionalInterface
    public interface ObjectScope {
        ObjectScope EVERY_OBJECT = (resource, body) -> true;

        boolean serves(Resource resource, Map<String, Object> body);
    }

    /**
     * Narrows the objects that the watched handlers (changing, event, daemons and timers, children,
     * indexes; not admission) serve: an object outside the scope is one that no handler's filters
     * match, as Kopf treats an object whose labels no longer match (its daemons stop, its finalizer
     * goes, its index entries go).
     */
    public void serveOnly(ObjectScope scope) {
        this.scope = Objects.requireNonNull(scope);
    }

    /** Whether the cause's object is in the scope the watched handlers serve. */
    public boolean serves(Cause cause) {
        return scope.serves(cause.resource(), cause.raw());
    }

    /**
     * Adds a handler. One method under several annotations may share its id (it runs once per
     * cause); another method with an id already used for the same resource and cause is a startup error.
     */
    public synchronized void add(ChangingHandler handler) {
        for (ChangingHandler existing : changing) {
            boolean overlapping = existing.reason() == null || handler.reason() == null || existing.reason() == handler.reason();
            if (overlapping && existing.id().equals(handler.id()) && existing.selector().equals(handler.selector())
                    && !existing.origin().equals(handler.origin())) {
                throw duplicate(handler.origin(), handler.id(), existing.origin());
            }
        }
        changing.add(handler);
    }

    public synchronized void add(WatchingHandler handler) {
        for (WatchingHandler existing : watching) {
            if (existing.id().equals(handler.id()) && existing.selector().equals(handler.selector())) {
                throw duplicate(handler.origin(), handler.id(), existing.origin());
            }
        }
        watching.add(handler);
    }

    /** Adds a daemon or timer; ids are unique per resource among them. */
    public synchronized void add(SpawningHandler handler) {
        for (SpawningHandler existing : spawning) {
            if (existing.id().equals(handler.id()) && existing.selector().equals(handler.selector())) {
                throw duplicate(handler.origin(), handler.id(), existing.origin());
            }
        }
        spawning.add(handler);
    }

    /** Adds a children handler; ids are unique per resource among them. */
    public synchronized void add(ChildrenHandler handler) {
        for (ChildrenHandler existing : children) {
            if (existing.id().equals(handler.id()) && existing.selector().equals(handler.selector())) {
                throw duplicate(handler.origin(), handler.id(), existing.origin());
            }
        }
        children.add(handler);
    }

    /** Adds a conversion; one per pair of versions. */
    public synchronized void add(ConversionHandler handler) {
        for (ConversionHandler existing : conversions) {
            if (existing.from().type().equals(handler.from().type()) && existing.to().type().equals(handler.to().type())) {
                throw new InvalidHandlerException("Conversion " + handler.origin() + " converts " + handler.from()
                        + " to " + handler.to().version() + ", as " + existing.origin() + " already does: keep one");
            }
        }
        conversions.add(handler);
    }

    /** {@return the conversions between versions, in declaration order} */
    public synchronized List<ConversionHandler> conversions() {
        return List.copyOf(conversions);
    }

    /** Adds an indexing function; its id names the index, so it is unique in the operator. */
    public synchronized void add(IndexingHandler handler) {
        for (IndexingHandler existing : indexing) {
            if (existing.id().equals(handler.id())) {
                throw duplicate(handler.origin(), handler.id(), existing.origin());
            }
        }
        indexing.add(handler);
    }

    /**
     * Adds an admission handler; its id names its webhook (the URL's last segment, the webhook's
     * name in the configuration), so it is unique among the handlers of its type.
     */
    public synchronized void add(WebhookHandler handler) {
        if (handler.id().startsWith(WebhookClientConfig.CONVERSION_PATH + "/")) {
            throw new InvalidHandlerException("Handler " + handler.origin() + ": its id '" + handler.id() + "' is a path"
                    + " under which the webhook server takes conversions; give it another id");
        }
        for (WebhookHandler existing : webhooks) {
            if (existing.id().equals(handler.id()) && existing.type() == handler.type()) {
                throw duplicate(handler.origin(), handler.id(), existing.origin());
            }
        }
        webhooks.add(handler);
    }

    public synchronized void add(ActivityHandler activity) {
        for (ActivityHandler existing : activities) {
            if (existing.kind().equals(activity.kind()) && existing.id().equals(activity.id())) {
                throw duplicate(activity.origin(), activity.id(), existing.origin());
            }
        }
        activities.add(activity);
    }

    /** Adds what a handler class declares that its handlers do with the API themselves ({@code @Permission}). */
    public synchronized void add(DeclaredPermission permission) {
        permissions.add(permission);
    }

    /** {@return the permissions the handler classes declare, in declaration order} */
    public synchronized List<DeclaredPermission> declaredPermissions() {
        return List.copyOf(permissions);
    }

    /** The activities of a kind: startup, cleanup, login or probe. */
    public synchronized List<ActivityHandler> activities(String kind) {
        return activities.stream().filter(a -> a.kind().equals(kind)).toList();
    }

    /**
     * One line per handler, in the order of registration per kind: its id (the key of its state on
     * the objects, and how tests and log lines name it), what declared it and for which resource.
     * {@code kopf4j run --verbose} logs them at the start, e.g.
     * {@code html/spec.html: @On.Update of kopfexamples, Handlers.html(Spec)}.
     */
    public synchronized List<String> listing() {
        List<String> lines = new ArrayList<>();
        for (ActivityHandler handler : activities) {
            lines.add(handler.id() + ": @On." + activityAnnotation(handler.kind()) + ", " + handler.origin());
        }
        for (ChangingHandler handler : changing) {
            lines.add(listed(handler.id(), "@On." + changingAnnotation(handler), handler.selector(), handler.origin()));
        }
        for (WatchingHandler handler : watching) {
            lines.add(listed(handler.id(), "@On.Event", handler.selector(), handler.origin()));
        }
        for (SpawningHandler handler : spawning) {
            String annotation = handler instanceof TimerHandler ? "@Timer" : "@Daemon";
            lines.add(listed(handler.id(), annotation, handler.selector(), handler.origin()));
        }
        for (ChildrenHandler handler : children) {
            lines.add(listed(handler.id(), "@Children", handler.selector(), handler.origin()));
        }
        for (IndexingHandler handler : indexing) {
            lines.add(listed(handler.id(), "@Indexer", handler.selector(), handler.origin()));
        }
        for (WebhookHandler handler : webhooks) {
            String annotation = handler.type() == WebhookType.MUTATING ? "@On.Mutate" : "@On.Validate";
            lines.add(listed(handler.id(), annotation, handler.selector(), handler.origin()));
        }
        for (ConversionHandler handler : conversions) {
            lines.add("@On.Convert " + handler.from().apiVersion() + " to " + handler.to().apiVersion() + " of "
                    + handler.from().kind() + ", " + handler.origin());
        }
        return lines;
    }

    private static String listed(String id, String annotation, ResourceSelector selector, String origin) {
        return id + ": " + annotation + " of " + selector + ", " + origin;
    }

    private static String changingAnnotation(ChangingHandler handler) {
        if (handler.initial()) {
            return "Resume";
        }
        if (handler.reason() == null) {
            return "Field";
        }
        String reason = handler.reason().name();
        return reason.charAt(0) + reason.substring(1).toLowerCase(Locale.ROOT);
    }

    private static String activityAnnotation(String kind) {
        return switch (kind) {
            case ActivityHandler.AUTHENTICATION -> "Login";
            case ActivityHandler.STARTUP -> "Startup";
            case ActivityHandler.CLEANUP -> "Cleanup";
            default -> "Probe";
        };
    }

    /** {@return whether the API server calls the operator: admission handlers or conversions need a webhook server} */
    public synchronized boolean needsWebhookServer() {
        return !webhooks.isEmpty() || !conversions.isEmpty();
    }

    public synchronized boolean isEmpty() {
        return changing.isEmpty() && watching.isEmpty() && activities.isEmpty() && spawning.isEmpty()
                && indexing.isEmpty() && webhooks.isEmpty() && children.isEmpty() && conversions.isEmpty();
    }

    public synchronized int size() {
        return changing.size() + watching.size() + activities.size() + spawning.size() + indexing.size()
                + webhooks.size() + children.size() + conversions.size();
    }

    /** Every admission handler of the operator, in declaration order. */
    public synchronized List<WebhookHandler> webhookHandlers() {
        return List.copyOf(webhooks);
    }

    /** The distinct selectors of the admission handlers: their resources are served by webhooks, not watched. */
    public synchronized Set<ResourceSelector> webhookSelectors() {
        Set<ResourceSelector> selectors = new LinkedHashSet<>();
        webhooks.forEach(h -> selectors.add(h.selector()));
        return selectors;
    }

    /**
     * The admission handlers a request calls (Kopf's webhooks registry): those of the webhook its URL
     * names, or all of them; mutating ones for deletions only if they are for deletions alone; then
     * the resource, the subresource ({@code *} for any) and the filters on the object. The
     * operations are not checked here, as in Kopf: they shape the webhooks' rules, so the API
     * server sends only those (a manual configuration may send more).
     */
    public synchronized List<WebhookHandler> webhookHandlers(WebhookCause cause) {
        List<WebhookHandler> selected = new ArrayList<>();
        for (WebhookHandler handler : webhooks) {
            boolean matchingWebhook = cause.webhook() == null || cause.webhook().equals(handler.id());
            boolean forDeletion = handler.type() != WebhookType.MUTATING || !"DELETE".equals(cause.operation())
                    || List.of("DELETE").equals(handler.operations());
            boolean matchingSubresource = "*".equals(handler.subresource())
                    || Objects.equals(handler.subresource(), cause.subresource());
            if (matchingWebhook && forDeletion && handler.selector().matches(cause.resource())
                    && matchingSubresource && handler.filters().matchesBody(cause, cause.raw())) {
                selected.add(handler);
            }
        }
        return selected;
    }

    /** The distinct selectors of the watched handlers (all but admission handlers), in declaration order. */
    public synchronized Set<ResourceSelector> selectors() {
        Set<ResourceSelector> selectors = new LinkedHashSet<>();
        changing.forEach(h -> selectors.add(h.selector()));
        watching.forEach(h -> selectors.add(h.selector()));
        spawning.forEach(h -> selectors.add(h.selector()));
        indexing.forEach(h -> selectors.add(h.selector()));
        children.forEach(h -> selectors.add(h.selector()));
        return selectors;
    }

    /** Where the watched handlers with this selector are declared ({@code Example.create(Spec)}), for errors that name them. */
    public synchronized List<String> origins(ResourceSelector selector) {
        List<String> origins = new ArrayList<>();
        changing.stream().filter(h -> h.selector().equals(selector)).forEach(h -> origins.add(h.origin()));
        watching.stream().filter(h -> h.selector().equals(selector)).forEach(h -> origins.add(h.origin()));
        spawning.stream().filter(h -> h.selector().equals(selector)).forEach(h -> origins.add(h.origin()));
        indexing.stream().filter(h -> h.selector().equals(selector)).forEach(h -> origins.add(h.origin()));
        children.stream().filter(h -> h.selector().equals(selector)).forEach(h -> origins.add(h.origin()));
        return origins;
    }

    /** All changing handlers of a resource: whose progress records belong to this operator. */
    public synchronized List<ChangingHandler> changingHandlers(Resource resource) {
        return changing.stream().filter(h -> h.selector().matches(resource)).toList();
    }

    /** The changing handlers a cause calls, each id once: Kopf's reason, resume, filter and field rules. */
    public synchronized List<ChangingHandler> changingHandlers(ChangingCause cause) {
        List<ChangingHandler> selected = new ArrayList<>();
        if (!serves(cause)) {
            return selected;
        }
        Set<String> ids = new HashSet<>();
        for (ChangingHandler handler : changingHandlers(cause.resource())) {
            if (handler.reactsTo(cause.reason(), cause.initial(), cause.deleting()) && matches(handler, cause)
                    && ids.add(handler.id())) {
                selected.add(handler);
            }
        }
        return selected;
    }

    /** Whether the object concerns any changing handler's filters; if not, it is left untouched (stealth). */
    public synchronized boolean prematches(ChangingCause cause) {
        return serves(cause) && changingHandlers(cause.resource()).stream().anyMatch(h -> prematches(h, cause));
    }

    /**
     * The filters of a resource's handlers when they are all changing handlers (no event handlers,
     * daemons, timers, indexes or children, which see every object), for an early check of whether
     * an object can concern any of them ({@link Filters#excludesByKeys}); null otherwise.
     */
    public synchronized List<Filters> changingFiltersOnly(Resource resource) {
        List<ChangingHandler> handlers = changingHandlers(resource);
        if (handlers.isEmpty() || hasWatchingHandlers(resource) || hasSpawningHandlers(resource)
                || hasIndexingHandlers(resource) || hasChildrenHandlers(resource)) {
            return null;
        }
        return handlers.stream().map(ChangingHandler::filters).toList();
    }

    /** Whether a handler that the object concerns requires kopf4j's finalizer on it. */
    public synchronized boolean requiresFinalizer(ChangingCause cause) {
        return serves(cause) && changingHandlers(cause.resource()).stream()
                .anyMatch(h -> h.requiresFinalizer() && prematches(h, cause));
    }

    /** The ids of a resource's changing and event handlers: the keys of their results in its objects' status. */
    public synchronized Set<String> resultIds(Resource resource) {
        Set<String> ids = new LinkedHashSet<>();
        changingHandlers(resource).forEach(h -> ids.add(h.id()));
        watching.stream().filter(h -> h.selector().matches(resource)).forEach(h -> ids.add(h.id()));
        return Set.copyOf(ids);
    }

    /** The event handlers of a resource, whatever their filters. */
    public synchronized List<WatchingHandler> watchingHandlers(Resource resource) {
        return watching.stream().filter(h -> h.selector().matches(resource)).toList();
    }

    /** The daemons and timers of a resource, whatever their filters. */
    public synchronized List<SpawningHandler> spawningHandlers(Resource resource) {
        return spawning.stream().filter(h -> h.selector().matches(resource)).toList();
    }

    /** The children handlers of a resource, whatever their filters. */
    public synchronized List<ChildrenHandler> childrenHandlers(Resource resource) {
        return children.stream().filter(h -> h.selector().matches(resource)).toList();
    }

    /** The children handlers of an object at this event: of its resource, and whose filters it passes. */
    public synchronized List<ChildrenHandler> childrenHandlers(SpawningCause cause) {
        return children.stream()
                .filter(h -> h.selector().matches(cause.resource()) && serves(cause) && h.filters().matchesBody(cause, cause.raw()))
                .toList();
    }

    /** Whether any children handler is of this resource: only then do its objects keep their children. */
    public synchronized boolean hasChildrenHandlers(Resource resource) {
        return children.stream().anyMatch(h -> h.selector().matches(resource));
    }

    /** Every children handler: their children's kinds are watched from the start. */
    public synchronized List<ChildrenHandler> childrenHandlers() {
        return List.copyOf(children);
    }

    /** The indexing functions of a resource, whatever their filters. */
    public synchronized List<IndexingHandler> indexingHandlers(Resource resource) {
        return indexing.stream().filter(h -> h.selector().matches(resource)).toList();
    }

    public synchronized boolean hasWatchingHandlers(Resource resource) {
        return watching.stream().anyMatch(h -> h.selector().matches(resource));
    }

    /** The event handlers whose filters the object passes. */
    public synchronized List<WatchingHandler> watchingHandlers(WatchingCause cause) {
        return watching.stream()
                .filter(h -> h.selector().matches(cause.resource()) && serves(cause) && h.filters().matchesBody(cause, cause.raw()))
                .toList();
    }

    public synchronized boolean hasSpawningHandlers(Resource resource) {
        return spawning.stream().anyMatch(h -> h.selector().matches(resource));
    }

    /**
     * The daemons and timers whose filters the object passes (Kopf's spawning registry), except those
     * that ended for good.
     *
     * @param excluded ids that exited on their own in this process: never spawned again
     */
    public synchronized List<SpawningHandler> spawningHandlers(SpawningCause cause, Set<String> excluded) {
        return spawning.stream()
                .filter(h -> h.selector().matches(cause.resource()) && !excluded.contains(h.id()) && serves(cause)
                        && h.filters().matchesBody(cause, cause.raw()))
                .toList();
    }

    /** Every indexing function of the operator: one index each. */
    public synchronized List<IndexingHandler> indexingHandlers() {
        return List.copyOf(indexing);
    }

    public synchronized boolean hasIndexingHandlers(Resource resource) {
        return indexing.stream().anyMatch(h -> h.selector().matches(resource));
    }

    private static boolean prematches(ChangingHandler handler, ChangingCause cause) {
        return handler.filters().prematches(cause, cause.old(), cause.current());
    }

    /** Kopf's match: the pre-match, and for update and field handlers, a change in their field. */
    private static boolean matches(ChangingHandler handler, ChangingCause cause) {
        return fieldChanged(handler, cause.old(), cause.current())
                && handler.filters().matches(cause, cause.old(), cause.current());
    }

    private static boolean fieldChanged(ChangingHandler handler, Map<String, Object> old, Map<String, Object> current) {
        if (!handler.fieldNeedsChange()) {
            return true;
        }
        Object before = old == null ? null : Dicts.resolve(old, handler.field(), null);
        Object after = current == null ? null : Dicts.resolve(current, handler.field(), null);
        return !Json.equal(before, after);
    }

    /**
     * The fields that the resource's handlers react to, kept in the essence even where it has no
     * place for them (status), as Kopf's {@code get_extra_fields}: so that their changes are changes.
     */
    public synchronized Set<List<String>> extraFields(Resource resource) {
        Set<List<String>> fields = new LinkedHashSet<>();
        changingHandlers(resource).forEach(h -> {
            if (h.field() != null) {
                fields.add(h.field());
            }
        });
        watching.stream().filter(h -> h.selector().matches(resource) && h.filters().field() != null)
                .forEach(h -> fields.add(h.filters().field()));
        spawning.stream().filter(h -> h.selector().matches(resource) && h.filters().field() != null)
                .forEach(h -> fields.add(h.filters().field()));
        return fields;
    }

    private static InvalidHandlerException duplicate(String origin, String id, String existing) {
        return new InvalidHandlerException("Handler " + origin + ": the id '" + id + "' is already used by "
                + Objects.requireNonNull(existing) + "; give one of them another id (id = \"...\")");
    }
}
