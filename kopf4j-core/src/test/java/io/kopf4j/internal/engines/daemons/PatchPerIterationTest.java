package io.kopf4j.internal.engines.daemons;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.HandlerFn;
import io.kopf4j.HandlerKind;
import io.kopf4j.TemporaryError;
import io.kopf4j.internal.clients.ObjectPatching;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.Specs;
import io.kopf4j.internal.reactor.processing.ObjectSpawns;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Kopf 1.44.5 (#1296, docs/patches.rst "Patch timing in daemons and timers"): the patch of a daemon
 * or timer, its merge patch and its functions, is applied after each call, a failed one included,
 * and the functions that met a newer object (a 422 of their JSON Patch) are carried into the next
 * call's patch, where the handler finds them before it has changed anything. The patcher is a fake
 * that answers the first patch as the API server answers a stale one: its functions come back.
 */
class PatchPerIterationTest {
    /** One patch as the patcher got it: the merge patch, and the functions in their order. */
    private record Sent(Map<String, Object> merge, List<Consumer<Map<String, Object>>> fns) {
    }

    private final List<Sent> sent = new CopyOnWriteArrayList<>();
    /** The functions already in the handler's patch when each call started. */
    private final List<List<Consumer<Map<String, Object>>>> pendingAtStart = new CopyOnWriteArrayList<>();
    /** The function each call added, by call. */
    private final List<Consumer<Map<String, Object>>> added = new CopyOnWriteArrayList<>();

    /** The first patch's functions meet a newer object (422) and come back; later patches apply in full. */
    private final ObjectPatching patcher = (resource, body, patch, resultsOf, logger) -> {
        sent.add(new Sent(patch.toMap(), List.copyOf(patch.fns())));
        return sent.size() == 1 ? new ObjectPatching.Applied(null, new ArrayList<>(patch.fns()))
                : new ObjectPatching.Applied(String.valueOf(sent.size() + 1), List.of());
    };

    /** The first call fails temporarily (retried at once), the second succeeds with "done"; each patches both ways. */
    private final HandlerFn failingOnce = context -> {
        int call = context.retry();
        pendingAtStart.add(List.copyOf(context.patch().fns()));
        context.patch().status().put("call" + call, true);
        Consumer<Map<String, Object>> condition = body -> { };
        added.add(condition);
        context.patch().fns().add(condition);
        if (call == 0) {
            throw new TemporaryError("not yet", Duration.ZERO);
        }
        return "done";
    };

    @Test
    void aDaemonsPatchIsAppliedAfterEachCallAndItsConflictingFunctionsComeBackInTheNextCallsPatch() {
        HandlerRegistry registry = new HandlerRegistry();
        Specs.spec(HandlerKind.DAEMON, List.of("kopfexamples"), new Option.Id("watch")).register(failingOnce, registry);
        Spawner spawner = new Spawner(registry, patcher);
        try {
            ObjectSpawns daemons = spawner.spawn(Spawner.object("ex", Map.of()));
            await("the daemon has exited on its own").atMost(Duration.ofSeconds(30))
                    .until(() -> daemons.foreverStopped().contains("watch"));
            assertTwoCallsPatchedInTurn("watch");
        } finally {
            spawner.engine().stopTakingWork();
        }
    }

    @Test
    void aTimersPatchIsAppliedAfterEachCallAndItsConflictingFunctionsComeBackInTheNextCallsPatch() {
        HandlerRegistry registry = new HandlerRegistry();
        Specs.spec(HandlerKind.TIMER, List.of("kopfexamples"), new Option.Id("tick"),
                new Option.Interval(Duration.ofHours(1))).register(failingOnce, registry);
        Spawner spawner = new Spawner(registry, patcher);
        try {
            spawner.spawn(Spawner.object("ex", Map.of()));
            await("both calls patched").atMost(Duration.ofSeconds(30)).until(() -> sent.size() == 2);
            assertTwoCallsPatchedInTurn("tick");
        } finally {
            spawner.engine().stopTakingWork();
        }
    }

    private void assertTwoCallsPatchedInTurn(String id) {
        assertThat(sent.get(0).merge()).as("applied after the TemporaryError, before the next call")
                .isEqualTo(Map.of("status", Map.of("call0", true)));
        assertThat(sent.get(0).fns()).containsExactly(added.get(0));
        assertThat(pendingAtStart.get(0)).isEmpty();
        assertThat(pendingAtStart.get(1)).as("the function left by the 422, in the next call's patch from its start")
                .containsExactly(added.get(0));
        assertThat(sent.get(1).merge()).as("a fresh merge patch, with the call's result")
                .isEqualTo(Map.of("status", Map.of("call1", true, id, "done")));
        assertThat(sent.get(1).fns()).as("the carried function first, then the call's own").containsExactly(added.get(0), added.get(1));
    }
}
