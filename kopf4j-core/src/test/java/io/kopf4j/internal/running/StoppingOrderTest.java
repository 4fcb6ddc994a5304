package io.kopf4j.internal.running;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.internal.runtime.Engine;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoppingOrderTest {
    private record Named(String name, boolean servesApiServer) implements Engine {
    }

    @Test
    void theEnginesStopTakingWorkInTheReverseOrderAndTheWebhooksLast() {
        Named peering = new Named("peering", false);
        Named reactor = new Named("reactor", false);
        Named admission = new Named("admission", true);
        Named daemons = new Named("daemons", false);
        assertThat(OperatorRuntime.stoppingOrder(List.of(daemons, peering, reactor, admission)))
                .containsExactly(reactor, peering, daemons, admission);
    }
}
