package io.kopf4j.internal.actions;

import io.kopf4j.Patch;
import io.kopf4j.internal.intents.ExecutableHandler;
import io.kopf4j.storage.ProgressRecord;
import io.kopf4j.storage.ProgressStorage;
import io.kopf4j.storage.UnreadableStateException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;

/**
 * The progress of an object's handlers within one change, as Kopf's {@code State}: read from the
 * progress storage, advanced by outcomes, written back (only what changed), purged when done.
 */
public final class State {
    /** Counts of handlers by how they ended. */
    public record Counts(int success, int failure, int running) {
    }

    private final Map<String, HandlerState> states;
    private final String purpose;

    private State(Map<String, HandlerState> states, String purpose) {
        this.states = states;
        this.purpose = purpose;
    }

    /** No progress yet: for handlers without an object to keep it on (activities, event handlers). */
    public static State fromScratch() {
        return new State(new LinkedHashMap<>(), null);
    }

    /**
     * The stored progress of these handlers (those without a record are not in it yet). A record
     * that cannot be read is warned of and taken as absent: the handler runs as if it never did,
     * and its fresh record replaces the garbage, so that garbage never blocks an object (its
     * deletion included).
     *
     * @param logger the object's logger, for the warning
     */
    public static State fromStorage(Map<String, Object> body, ProgressStorage storage,
                                    Collection<? extends ExecutableHandler> handlers, Logger logger) {
        Map<String, HandlerState> states = new LinkedHashMap<>();
        for (ExecutableHandler handler : handlers) {
            ProgressRecord record;
            try {
                record = storage.fetch(handler.id(), body);
            } catch (UnreadableStateException e) {
                logger.warn("{}: its stored progress is ignored, as if it never ran: {}.", handler.title(), e.getMessage());
                record = null;
            }
            if (record != null) {
                states.put(handler.id(), HandlerState.fromStorage(record));
            }
        }
        return new State(states, null);
    }

    /** The state set to a cause's purpose, re-purposing the given handlers' records. */
    public State withPurpose(String newPurpose, Collection<? extends ExecutableHandler> handlers) {
        Map<String, HandlerState> copy = new LinkedHashMap<>(states);
        for (ExecutableHandler handler : handlers) {
            copy.computeIfPresent(handler.id(), (id, state) -> state.withPurpose(newPurpose));
        }
        return new State(copy, newPurpose);
    }

    /** The state with these handlers active: new ones from scratch, known ones as they were. */
    public State withHandlers(Collection<? extends ExecutableHandler> handlers) {
        Map<String, HandlerState> copy = new LinkedHashMap<>(states);
        for (ExecutableHandler handler : handlers) {
            HandlerState known = copy.get(handler.id());
            copy.put(handler.id(), known == null ? HandlerState.fromScratch(purpose) : known.asActive());
        }
        return new State(copy, purpose);
    }

    public State withOutcomes(Map<String, Outcome> outcomes) {
        Map<String, HandlerState> copy = new LinkedHashMap<>(states);
        outcomes.forEach((id, outcome) -> copy.put(id, Objects.requireNonNull(copy.get(id), id).withOutcome(outcome)));
        return new State(copy, purpose);
    }

    /** The ids of all handlers in this state, active or not. */
    public Set<String> ids() {
        return Set.copyOf(states.keySet());
    }

    public HandlerState get(String id) {
        return states.get(id);
    }

    /** Writes the records that changed since they were read. */
    public void store(Map<String, Object> body, Patch patch, ProgressStorage storage) {
        states.forEach((id, state) -> {
            ProgressRecord record = state.forStorage();
            if (!record.equals(state.origin())) {
                storage.store(id, record, body, patch);
            }
        });
    }

    /** Removes the records of these handlers, of any others in this state, and of all their sub-handlers. */
    public void purge(Map<String, Object> body, Patch patch, ProgressStorage storage,
                      Collection<? extends ExecutableHandler> handlers) {
        Set<String> ids = new LinkedHashSet<>();
        handlers.forEach(h -> ids.add(h.id()));
        ids.addAll(states.keySet());
        states.values().forEach(state -> ids.addAll(state.subrefs()));
        ids.forEach(id -> storage.purge(id, body, patch));
    }

    /** All active handlers finished; with no handlers, done before doing. */
    public boolean done() {
        return states.values().stream().filter(HandlerState::active).allMatch(HandlerState::finished);
    }

    /** Counts per superseded purpose: records left by a cause that a newer one replaced. */
    public Map<String, Counts> extras() {
        Map<String, Counts> extras = new LinkedHashMap<>();
        for (HandlerState state : states.values()) {
            if (state.purpose() != null && !state.purpose().equals(purpose)) {
                extras.computeIfAbsent(state.purpose(), p -> count(states.values().stream()
                        .filter(s -> p.equals(s.purpose())).toList()));
            }
        }
        return extras;
    }

    public Counts counts() {
        return count(states.values().stream()
                .filter(s -> purpose == null || s.purpose() == null || s.purpose().equals(purpose)).toList());
    }

    /** How long until each unfinished active handler is due (zero if due now). */
    public List<Duration> delays() {
        Instant now = Instant.now();
        return states.values().stream()
                .filter(s -> s.active() && !s.finished())
                .map(s -> s.delayed() == null || !s.delayed().isAfter(now) ? Duration.ZERO : Duration.between(now, s.delayed()))
                .toList();
    }

    /** Kopf's {@code state.delay}: until the earliest unfinished active handler is due; empty if none is unfinished. */
    public Optional<Duration> delay() {
        return delays().stream().min(Duration::compareTo);
    }

    public Map<String, Integer> retries() {
        Map<String, Integer> retries = new LinkedHashMap<>();
        states.forEach((id, state) -> retries.put(id, state.retries()));
        return retries;
    }

    private static Counts count(List<HandlerState> selected) {
        return new Counts((int) selected.stream().filter(HandlerState::success).count(),
                (int) selected.stream().filter(HandlerState::failure).count(),
                (int) selected.stream().filter(s -> !s.finished()).count());
    }
}
