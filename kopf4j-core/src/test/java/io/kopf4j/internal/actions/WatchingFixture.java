package io.kopf4j.internal.actions;

import io.kopf4j.Body;
import io.kopf4j.HandlerFn;
import io.kopf4j.Lifecycles;
import io.kopf4j.Memo;
import io.kopf4j.Patch;
import io.kopf4j.internal.engines.posting.CapturedEvents;
import io.kopf4j.internal.intents.Filters;
import io.kopf4j.internal.intents.ResourceSelector;
import io.kopf4j.internal.intents.WatchingCause;
import io.kopf4j.internal.intents.WatchingHandler;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.storage.MultiProgressStorage;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Event handlers of KopfExamples in memory, each run once for an object as the reactor runs them,
 * with the Kubernetes Events they post captured.
 *
 * <pre>{@code
 * try (WatchingFixture watching = new WatchingFixture()) {
 *     assertThat(watching.run(raw, context -> null).succeeded()).isTrue();
 * }
 * }</pre>
 */
final class WatchingFixture implements AutoCloseable {
    final CapturedEvents captured = new CapturedEvents();
    private final Execution execution = new Execution(Lifecycles.allAtOnce(), Duration.ofSeconds(60),
            MultiProgressStorage.smart("kopf.zalando.org"), new Metrics(null), null, captured.poster, null);

    /** Runs the function as the event handler {@code spy} for an ADDED event of this object; returns its outcome. */
    Outcome run(Map<String, Object> raw, HandlerFn function) {
        WatchingCause cause = new WatchingCause(ObjectFixture.KOPFEXAMPLES, raw, new Body(raw), new Patch(),
                ObjectLogger.local(raw), new Memo(), "ADDED", Map.of("type", "ADDED"));
        WatchingHandler handler = new WatchingHandler("spy", null, Filters.NONE, ResourceSelector.parse("kopfexamples"),
                function, "test");
        return execution.runWatching(List.of(handler), cause).get("spy");
    }

    @Override
    public void close() {
        captured.close();
    }
}
