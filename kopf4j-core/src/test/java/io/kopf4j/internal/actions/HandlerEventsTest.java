package io.kopf4j.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.Events;
import io.kopf4j.HandlerFn;
import io.kopf4j.internal.engines.posting.CapturedEvents;
import io.kopf4j.internal.engines.posting.EventWrite;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Handlers post events through the operator's poster: on their thread with Events, anywhere with their context. */
class HandlerEventsTest {
    private static final Map<String, Object> RAW = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "metadata", Map.of("name", "ex", "namespace", "ns"));
    private static final Map<String, Object> OTHER = Map.of("apiVersion", "v1", "kind", "ConfigMap",
            "metadata", Map.of("name", "cm", "namespace", "ns"));

    private final WatchingFixture watching = new WatchingFixture();
    private final CapturedEvents captured = watching.captured;

    @AfterEach
    void close() {
        watching.close();
    }

    private void runEventHandler(HandlerFn function) {
        assertThat(watching.run(RAW, function).succeeded()).isTrue();
    }

    @Test
    void eventsReachOtherObjectsFromTheHandlersThreadAndFromAnyOther() throws InterruptedException {
        runEventHandler(context -> {
            Events.info(OTHER, "Seen", "on the handler's thread");
            return CompletableFuture.runAsync(() -> context.warn(OTHER, "Seen", "in another thread"));
        });
        assertThat(List.of(captured.next(), captured.next())).extracting(e -> e.reference().get("name"), EventWrite::message)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("cm", "on the handler's thread"),
                        org.assertj.core.groups.Tuple.tuple("cm", "in another thread"));
    }

    @Test
    void eventsRefuseOutsideTheHandlersThreadAndAfterTheHandler() {
        runEventHandler(context -> null);
        assertThatThrownBy(() -> Events.warn(OTHER, "Warned", "outside"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("use the handler's HandlerContext");
    }
}
