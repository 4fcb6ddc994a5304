package io.kopf4j.internal.reactor.processing;

import io.kopf4j.Body;
import io.kopf4j.Memo;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What the operator remembers of one object between its events, until the object is deleted:
 * Kopf's {@code ResourceMemory}. All state that must survive a restart lives on the object
 * itself; this is only what may be lost.
 */
final class ObjectMemory {
    final Memo memo;
    /** First seen in the initial listing, not as a live event. */
    final boolean noticedByListing;
    final Throttler throttler = new Throttler();
    /** All handlers finished once since the operator started: no more resuming on re-lists. */
    boolean fullyHandledOnce;
    /**
     * The intermediate versions of our own last patch (the status written before the body): their
     * events show a state that our own later PATCH replaced, never one to detect changes in.
     */
    Set<String> supersededVersions = Set.of();
    /** Patch functions that met a newer object, for the next cycle. */
    List<Consumer<Map<String, Object>>> remainingFns = List.of();
    /** With daemons, timers or children: the latest body processed, what their live views show and a recheck processes again. */
    final LatestBody latest = new LatestBody();
    /** The object as daemons and timers see it: always the latest body. */
    private Body live;
    /** The object's daemons and timers; null until its first event with spawning handlers. */
    ObjectSpawns spawns;
    /** The object's children; null until its first event with children handlers. */
    Childing.ObjectChildren children;

    ObjectMemory(Memo memo, boolean noticedByListing) {
        this.memo = memo;
        this.noticedByListing = noticedByListing;
    }

    /** The object is deleted or handed over: its daemons stop, its children are forgotten. */
    void gone() {
        if (spawns != null) {
            spawns.gone();
        }
        if (children != null) {
            children.gone();
        }
    }

    /** Resume handlers are due: first seen at the start, and not yet handled since. */
    boolean initial() {
        return noticedByListing && !fullyHandledOnce;
    }

    /** The live view of {@link #latest}, made at the first need: objects without daemons never pay for it. */
    Body live() {
        if (live == null) {
            live = Body.live(latest::get);
        }
        return live;
    }
}
