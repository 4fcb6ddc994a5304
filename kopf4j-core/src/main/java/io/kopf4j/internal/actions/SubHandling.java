package io.kopf4j.internal.actions;

import io.kopf4j.SubHandler;
import io.kopf4j.internal.intents.ChangingCause;
import io.kopf4j.internal.intents.ChangingHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerSpec;
import io.kopf4j.storage.ProgressStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kopf's sub-handling for one attempt of one changing handler ({@code kopf.register},
 * {@code kopf.execute}): the sub-handlers run with the same rules as all handlers, under ids
 * {@code parent/child}, with their own progress records; their ids go to the subrefs of every
 * ancestor, so that all are purged together.
 */
final class SubHandling {
    private final Execution execution;
    private final ProgressStorage storage;
    private final ChangingCause cause;
    private final ChangingHandler parent;
    private final List<Set<String>> subrefContainers;
    private final List<ChangingHandler> registered = new ArrayList<>();
    private boolean executed;

    /** @param subrefContainers the sub-handler ids of the parent and of each of its ancestors */
    SubHandling(Execution execution, ProgressStorage storage, ChangingCause cause, ChangingHandler parent,
                List<Set<String>> subrefContainers) {
        this.execution = execution;
        this.storage = storage;
        this.cause = cause;
        this.parent = parent;
        this.subrefContainers = subrefContainers;
    }

    /** Checks the sub-handler against Kopf's rules now, in the parent's call, and keeps it for later. */
    void register(SubHandler subhandler) {
        registered.add(owned(subhandler));
    }

    /** The registered sub-handlers, once per attempt: explicitly, or implicitly after the parent returns. */
    void executeRegistered() {
        if (!executed) {
            executed = true;
            run(registered);
        }
    }

    /**
     * Runs the sub-handlers that are due and whose filters pass, as the lifecycle picks them.
     *
     * @throws HandlerChildrenRetry if some are unfinished
     */
    void execute(List<SubHandler> subhandlers) {
        run(subhandlers.stream().map(this::owned).toList());
    }

    /** The sub-handler as it runs under the parent: the parent's id as a prefix, its cause and resource. */
    private ChangingHandler owned(SubHandler subhandler) {
        return HandlerSpec.described(subhandler.description()).under(parent, subhandler.function());
    }

    private void run(List<ChangingHandler> owned) {
        if (owned.isEmpty()) {
            return;
        }
        HandlerRegistry registry = new HandlerRegistry();
        owned.forEach(registry::add);
        List<ChangingHandler> selected = registry.changingHandlers(cause);
        State state = State.fromStorage(cause.raw(), storage, owned, cause.logger())
                .withPurpose(String.valueOf(cause.reason()), List.of()).withHandlers(selected);
        Map<String, Outcome> outcomes = execution.runChanging(selected, state, cause, subrefContainers);
        state = state.withOutcomes(outcomes);
        state.store(cause.raw(), cause.patch(), storage);
        outcomes.forEach((id, outcome) -> {
            if (outcome.succeeded()) {
                Results.deliver(cause.patch(), id, outcome.result());
            }
        });
        for (Set<String> container : subrefContainers) {
            container.addAll(state.ids());
        }
        if (!state.done()) {
            throw new HandlerChildrenRetry(state.delay().orElseThrow());
        }
    }
}
