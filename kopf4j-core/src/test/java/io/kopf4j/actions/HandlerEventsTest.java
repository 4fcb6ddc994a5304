package io.kopf4j.actions;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Body;
import io.kopf4j.Events;
import io.kopf4j.HandlerFn;
import io.kopf4j.Lifecycles;
import io.kopf4j.Memo;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import io.kopf4j.engines.posting.CapturedEvents;
import io.kopf4j.engines.posting.K8sEvent;
import io.kopf4j.runtime.Metrics;
import io.kopf4j.intents.WatchingCause;
import io.kopf4j.intents.Filters;
import io.kopf4j.intents.ResourceSelector;
import io.kopf4j.intents.WatchingHandler;
import io.kopf4j.logging.ObjectLogger;
import io.kopf4j.storage.MultiProgressStorage;
import io.kopf4j.structs.Diffs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Handlers post events through the operator's poster: on their thread with Events, anywhere with their context. */
class HandlerEventsTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of(), true, true, List.of("list", "watch", "patch"));
    private static final Map<String, Object> RAW = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "metadata", Map.of("name", "ex", "namespace", "ns"));
    private static final Map<String, Object> OTHER = Map.of("apiVersion", "v1", "kind", "ConfigMap",
            "metadata", Map.of("name", "cm", "namespace", "ns"));

    private final CapturedEvents captured = new CapturedEvents();
    private final Execution execution = new Execution(Lifecycles.allAtOnce(), Duration.ofSeconds(60),
            MultiProgressStorage.smart("kopf.zalando.org"), new Metrics(null), null, captured.poster, null);

    @AfterEach
    void close() {
        captured.close();
    }

    private void runEventHandler(HandlerFn function) {
        WatchingCause cause = new WatchingCause(KOPFEXAMPLES, RAW, new Body(RAW), new Patch(), ObjectLogger.local(RAW),
                new Memo(), "ADDED", Map.of("type", "ADDED"));
        WatchingHandler handler = new WatchingHandler("spy", null, Filters.NONE, ResourceSelector.parse("kopfexamples"),
                function, "test");
        assertThat(execution.runWatching(List.of(handler), cause).get("spy").succeeded()).isTrue();
    }

    @Test
    void eventsReachOtherObjectsFromTheHandlersThreadAndFromAnyOther() throws InterruptedException {
        runEventHandler(context -> {
            Events.info(OTHER, "Seen", "on the handler's thread");
            return CompletableFuture.runAsync(() -> context.warn(OTHER, "Seen", "in another thread"));
        });
        assertThat(List.of(captured.next(), captured.next())).extracting(e -> e.reference().get("name"), K8sEvent::message)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("cm", "on the handler's thread"),
                        org.assertj.core.groups.Tuple.tuple("cm", "in another thread"));
    }
}
