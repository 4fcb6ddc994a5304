package io.kopf4j.internal.reactor.processing;

import io.kopf4j.Body;
import io.kopf4j.Diff;
import io.kopf4j.Memo;
import io.kopf4j.Meta;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Patch;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.actions.Results;
import io.kopf4j.internal.clients.ObjectPatching;
import io.kopf4j.internal.intents.Causes;
import io.kopf4j.internal.intents.ChangingCause;
import io.kopf4j.internal.intents.Filters;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.SpawningCause;
import io.kopf4j.internal.intents.WatchingCause;
import io.kopf4j.internal.logging.EventSink;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.reactor.queueing.EventProcessor;
import io.kopf4j.internal.reactor.queueing.Pressure;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.watching.WatchEvent;
import io.kopf4j.storage.Finalizers;
import io.kopf4j.storage.ProgressStorage;
import io.kopf4j.storage.UnreadableStateException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Processes every event of one resource's objects, as Kopf's {@code process_resource_event}: the
 * event handlers at once, for every event; the daemons and timers spawned or stopped; then, once
 * our own last patch is seen (or its wait timed out), the change-detecting handlers on the object's essence; the finalizer added or released;
 * and one application of the accumulated patch at the end. Unexpected errors throttle the object.
 */
public final class ResourceProcessor implements EventProcessor {
    private final Resource resource;
    private final HandlerRegistry registry;
    private final OperatorSettings settings;
    private final Memo operatorMemo;
    private final EventSink poster;
    private final Execution execution;
    private final ChangeHandling changes;
    private final Application application;
    private final Map<String, ObjectMemory> memories = new ConcurrentHashMap<>();
    /**
     * With only changing handlers, their filters: an object whose labels or annotations rule it out
     * of all of them is not queued ({@link #concerns}); null otherwise.
     */
    private final List<Filters> changingFilters;
    /**
     * The keys of objects first seen in a listing but not queued, as no handler concerned them: if one
     * comes to concern a handler later, its memory still says it was noticed by the listing (Kopf's
     * resuming). A key each, instead of a memory and a queued body each.
     */
    private final Set<String> noticedUnconcerned = ConcurrentHashMap.newKeySet();
    private final Spawning spawning;
    private final Childing childing;
    private final Indexing indexing;
    private final IndexesBarrier barrier;
    private final Sharding sharding;
    private final SelectionExits exits;
    /** The resource has indexing functions: only then is each arriving event indexed. */
    private final boolean indexed;
    /** The resource has daemons or timers. */
    private final boolean spawns;
    /** The resource has children handlers. */
    private final boolean childed;
    private volatile Consumer<WatchEvent> rechecks = event -> { };

    /** What the causes of one event left to do: sleep for the delays, and whether handlers were concerned. */
    private record Handled(List<Duration> delays, boolean matched) {
    }

    public ResourceProcessor(Resource resource, HandlerRegistry registry, OperatorSettings settings, Memo operatorMemo,
                             ObjectPatching patcher, EventSink poster, Execution execution, Spawning spawning,
                             Childing childing, Indexing indexing, IndexesBarrier barrier, Sharding sharding,
                             SelectionExits exits) {
        this.exits = exits;
        this.resource = resource;
        this.registry = registry;
        this.settings = settings;
        this.operatorMemo = operatorMemo;
        this.poster = poster;
        this.execution = execution;
        this.changes = new ChangeHandling(resource, registry, settings, execution);
        this.application = new Application(resource, settings, patcher, registry.resultIds(resource));
        this.spawning = spawning;
        this.spawns = registry.hasSpawningHandlers(resource);
        this.childing = childing;
        this.childed = registry.hasChildrenHandlers(resource);
        this.indexing = indexing;
        this.barrier = barrier;
        this.sharding = sharding;
        this.indexed = registry.hasIndexingHandlers(resource);
        this.changingFilters = registry.changingFiltersOnly(resource);
    }

    /** Where the objects' rechecks go: the queues of this resource, made after the processor. */
    public void recheckThrough(Consumer<WatchEvent> queue) {
        this.rechecks = queue;
    }

    /** Objects remembered: seen and not yet deleted. */
    public int objects() {
        return memories.size();
    }

    /**
     * The memo of an object seen by the watch, for its admission requests (Kopf's {@code recall_memo});
     * a throwaway copy of the operator's memo for objects not seen (yet) and ephemeral requests.
     *
     * @param raw the object of the request
     * @param ephemeral the object is being created: nothing to recall
     */
    public Memo recallMemo(Map<String, Object> raw, boolean ephemeral) {
        Object uid = raw.get("metadata") instanceof Map<?, ?> metadata ? metadata.get("uid") : null;
        ObjectMemory memory = ephemeral || uid == null ? null : memories.get(uid.toString());
        return memory != null ? memory.memo : operatorMemo.copyForObject();
    }

    /**
     * Kopf indexes before anything else, at every event: here as it arrives, so that a delivered
     * listing is indexed. Indexing functions see the object's memo, as its handlers do.
     */
    @Override
    public void arrived(WatchEvent event) {
        if (indexed) {
            // Another replica's object gets no memory here: its events would only forget it again.
            ObjectMemory memory = event.isDeleted() || !sharding.owns(event.key()) ? memories.get(event.key())
                    : memoryOf(event);
            indexing.index(resource, event, memory == null ? operatorMemo : memory.memo);
        }
    }

    /** The object's memory, made at its first event: Kopf's memo is a shallow copy of the operator's at first sight. */
    private ObjectMemory memoryOf(WatchEvent event) {
        return memories.computeIfAbsent(event.key(), k -> new ObjectMemory(operatorMemo.copyForObject(),
                event.isListing() || noticedUnconcerned.remove(k)));
    }

    /**
     * An object that the operator does not remember, without its finalizer, whose labels or
     * annotations rule it out of every handler: processing it would do nothing (Kopf's stealth
     * objects), so it is not queued, and nothing of it is kept but, if listed, its key. In a big
     * cluster of objects that the handlers' label filters leave out, each then costs the parsing of
     * its events only.
     */
    @Override
    public boolean concerns(WatchEvent event) {
        if (changingFilters == null) {
            return true;
        }
        String key = event.key();
        if (event.isDeleted()) {
            noticedUnconcerned.remove(key);
            return memories.containsKey(key);
        }
        Map<String, Object> raw = event.object();
        if (memories.containsKey(key) || Finalizers.isDeletionBlocked(raw, settings.persistence.finalizer)) {
            return true;
        }
        Meta meta = new Body(raw).meta();
        Map<String, String> labels = meta.labels();
        Map<String, String> annotations = meta.annotations();
        if (changingFilters.stream().allMatch(filters -> filters.excludesByKeys(labels, annotations))) {
            if (event.isListing()) {
                noticedUnconcerned.add(key);
            }
            return false;
        }
        return true;
    }

    @Override
    public String process(WatchEvent event, Pressure pressure, Instant consistencyDeadline) throws InterruptedException {
        String key = event.key();
        if (!sharding.owns(key)) {   // before the barrier: another replica's object never waits for the indexes
            forget(key);
            return null;
        }
        barrier.await();
        SelectionExits.Confirmed confirmed = exits.confirm(event);
        event = confirmed.event();
        ObjectMemory memory = event.isRecheck() ? memories.get(key) : memoryOf(event);
        if (memory == null) {
            return null;   // a recheck of an object deleted meanwhile
        }
        Map<String, Object> raw = event.isRecheck() ? memory.latest.get() : event.object();
        if ((spawns || childed) && !event.isRecheck()) {
            memory.latest.set(raw);   // Kopf's live body: daemons see every event's state, the DELETED one included
        }
        if (event.isDeleted()) {
            memories.remove(key);
            memory.gone();
        }
        ObjectLogger local = ObjectLogger.local(raw);
        if (!memory.throttler.admits(pressure, local)) {
            return null;
        }
        try {
            Patch patch = new Patch(stillPending(memory.remainingFns, raw));
            Handled handled = processCauses(event, patch, memory, pressure, consistencyDeadline, local);
            String version = null;
            if (!event.isDeleted()) {
                Application.Applied applied = application.apply(raw, patch, handled.delays(), pressure, local);
                if (applied.applied() && handled.matched()) {
                    local.debug("Handling cycle is finished, waiting for new changes.");
                }
                memory.remainingFns = applied.remainingFns();
                if (applied.resourceVersion() != null) {
                    memory.supersededVersions = Set.copyOf(applied.supersededVersions());
                }
                version = applied.resourceVersion();
            }
            memory.throttler.succeeded();
            if (confirmed.departed()) {
                forget(key);   // outside the selection, it sends no more events: not even its deletion
            }
            return version;
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (RuntimeException | Error e) {
            memory.throttler.failed(e, settings.queueing.errorDelays, pressure, local);
            return null;
        }
    }

    /**
     * Another replica handles the object (now, or from the next hand-over on): its memory goes, and
     * its daemons stop as for a deletion, so that it is seen afresh (a resume) if it comes back.
     */
    private void forget(String key) {
        ObjectMemory memory = memories.remove(key);
        if (memory != null) {
            memory.gone();
        }
    }

    /** Kopf's {@code process_resource_causes}. */
    private Handled processCauses(WatchEvent event, Patch patch, ObjectMemory memory, Pressure pressure,
                                  Instant consistencyDeadline, ObjectLogger local) throws InterruptedException {
        Map<String, Object> raw = event.object();
        Body body = new Body(raw);
        boolean patchInitiallyEmpty = patch.isEmpty();
        ProgressStorage progress = settings.persistence.progressStorage;
        String finalizer = settings.persistence.finalizer;

        Map<String, Object> old = lastHandled(raw);
        old = old == null ? null : progress.clear(old);
        Map<String, Object> current = progress.clear(
                settings.persistence.diffbaseStorage.build(raw, registry.extraFields(resource)));
        Diff diff = Diff.between(old, current);
        boolean deleting = Finalizers.isDeletionOngoing(raw);
        boolean blocked = Finalizers.isDeletionBlocked(raw, finalizer);

        if (registry.hasWatchingHandlers(resource) && !event.isRecheck()) {
            Map<String, Object> rawEvent = new LinkedHashMap<>();
            rawEvent.put("type", event.type());
            rawEvent.put("object", raw);
            // Kopf's event handlers log locally: their lines never become Kubernetes Events.
            WatchingCause watching = new WatchingCause(resource, raw, body, patch, local, memory.memo, event.type(),
                    rawEvent);
            execution.runWatching(registry.watchingHandlers(watching), watching).forEach((id, outcome) -> {
                if (outcome.succeeded()) {
                    Results.deliver(patch, id, outcome.result());
                }
            });
        }

        // Daemons are spawned before the changing handlers and stopped after them (Kopf's order).
        SpawningCause spawningCause = null;
        boolean holding = false;
        if (spawns && !event.isDeleted()) {
            spawningCause = new SpawningCause(resource, raw, memory.live(), patch, ObjectLogger.posting(raw, poster),
                    memory.memo, !diff.isEmpty());
            holding = spawnsOf(memory, event.key(), raw).handle(spawningCause, deleting);
        }
        if (childed && !event.isDeleted() && !deleting) {
            SpawningCause childrenCause = spawningCause != null ? spawningCause
                    : new SpawningCause(resource, raw, body, patch, ObjectLogger.posting(raw, poster), memory.memo, !diff.isEmpty());
            childrenOf(memory, event.key()).reconcile(childrenCause, current);
        }

        ChangingCause changing = null;
        if (!registry.changingHandlers(resource).isEmpty()) {
            Reason reason = Causes.detect(event.isDeleted(), deleting, blocked, old != null, diff, memory.initial());
            // Creation never mixes with resuming, even for an object first seen in the initial listing.
            boolean initial = memory.initial() && reason != Reason.CREATE;
            changing = new ChangingCause(resource, raw, body, patch, ObjectLogger.posting(raw, poster), memory.memo,
                    reason, initial, deleting, diff, old, current);
            if (!registry.prematches(changing)) {
                changing = null;
            }
        }

        boolean mustBlock = (changing != null && registry.requiresFinalizer(changing))
                || (spawningCause != null
                    && !registry.spawningHandlers(spawningCause, memory.spawns.foreverStopped()).isEmpty());
        if (mustBlock && !blocked && !deleting) {
            local.debug("Adding the finalizer, thus preventing the actual deletion.");
            patch.fns().add(Finalizers.blockDeletion(finalizer));
            changing = null;
        }
        if (!mustBlock && blocked) {
            local.debug("Removing the finalizer, as there are no handlers requiring it.");
            patch.fns().add(Finalizers.allowDeletion(finalizer));
            changing = null;
        }

        // Change detection needs the state our own last patch produced: wait for it to come back,
        // waking for newer events (processed next), or take the silence as consistency. An event of
        // our own intermediate state is never consistent, however late the next one comes (under
        // load the watch lags by more than the consistency timeout): it lacks the diff-base written
        // after the results, and would run the handlers again.
        if (changing != null) {
            boolean superseded = memory.supersededVersions.contains(event.resourceVersion());
            boolean consistent = !superseded && (consistencyDeadline == null || changing.reason() == Reason.GONE);
            if (!consistent && !superseded && patch.isEmpty()) {
                consistent = pressure.sleep(Duration.between(Instant.now(), consistencyDeadline)) == null;
            }
            if (!consistent || !patchInitiallyEmpty) {
                return new Handled(List.of(), false);
            }
        }

        List<Duration> delays = changing == null ? List.of() : changes.handle(changing, memory);
        // Released once: when no handler requires the finalizer, it went above, with the changes skipped.
        if (mustBlock && !event.isDeleted() && deleting && blocked && delays.isEmpty() && !holding) {
            local.debug("Removing the finalizer, thus allowing the actual deletion.");
            patch.fns().add(Finalizers.allowDeletion(finalizer));
        }
        return new Handled(new ArrayList<>(delays), changing != null);
    }

    /**
     * The diff-base: the essence last handled, or null if never handled. One that cannot be read
     * (garbage in the annotation) is warned of and taken as absent, as Kopf takes an object without
     * it: handled as if seen for the first time (its creation handlers; for an object being deleted,
     * its deletion handlers, and the finalizer released after them); the handling then stores a
     * readable one over it.
     */
    private Map<String, Object> lastHandled(Map<String, Object> raw) {
        try {
            return settings.persistence.diffbaseStorage.fetch(raw);
        } catch (UnreadableStateException e) {
            ObjectLogger.posting(raw, poster).warn("The last handled state is ignored, as if the object was never handled: {}.",
                    e.getMessage());
            return null;
        }
    }

    /**
     * The functions left by a patch that met a newer object, unless this state already has what they
     * would do. A function left by a stale event (a re-list taken before our own PATCH) is typically
     * satisfied by our PATCH's own event: kept, it would make that event look inconsistent (a patch is
     * pending) and then send nothing, so no event would ever come to handle the object. Kopf 1.44 stalls
     * so under a burst; checking the functions against the body costs no API request.
     */
    private static List<Consumer<Map<String, Object>>> stillPending(List<Consumer<Map<String, Object>>> fns,
                                                                    Map<String, Object> raw) {
        if (fns.isEmpty()) {
            return fns;
        }
        Map<String, Object> edited = Json.deepCopy(raw);
        fns.forEach(fn -> fn.accept(edited));
        return Json.equal(edited, raw) ? List.of() : fns;
    }

    /** The object's daemons and timers, made at its first event that has any. */
    private ObjectSpawns spawnsOf(ObjectMemory memory, String key, Map<String, Object> raw) {
        if (memory.spawns == null) {
            memory.spawns = spawning.object(resource, memory.live(), memory.memo, ObjectLogger.posting(raw, poster),
                    recheckOf(memory, key));
        }
        return memory.spawns;
    }

    /** The object's children, made at its first event. */
    private Childing.ObjectChildren childrenOf(ObjectMemory memory, String key) {
        if (memory.children == null) {
            memory.children = childing.object(resource, key, recheckOf(memory, key));
        }
        return memory.children;
    }

    /** Queues the object for processing again with its latest body, unless it was deleted meanwhile. */
    private Runnable recheckOf(ObjectMemory memory, String key) {
        return () -> {
            if (memories.get(key) == memory) {   // not deleted meanwhile: only then parse its body
                Map<String, Object> latest = memory.latest.get();
                if (latest != null) {
                    rechecks.accept(WatchEvent.recheck(latest));
                }
            }
        };
    }
}
