package io.kopf4j.engines.daemons;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.DaemonStoppingReason;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The stop flag: waits end when it is set, reasons accumulate, interrupts are kept. */
class StopperTest {
    @Test
    void awaitReturnsAsSoonAsTheFlagIsSetWithTheReasonsSoFar() throws Exception {
        Stopper stopper = new Stopper();
        CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(() -> stopper.await(Duration.ofMinutes(5)));
        assertThat(stopper.isSet()).isFalse();
        assertThat(stopper.reason()).isEmpty();

        assertThat(stopper.set(DaemonStoppingReason.RESOURCE_DELETED)).isTrue();
        assertThat(waited.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(stopper.set(DaemonStoppingReason.DAEMON_SIGNALLED)).isTrue();
        assertThat(stopper.set(DaemonStoppingReason.RESOURCE_DELETED)).as("not new").isFalse();
        assertThat(stopper.reason()).containsExactly(DaemonStoppingReason.RESOURCE_DELETED, DaemonStoppingReason.DAEMON_SIGNALLED);
        assertThat(stopper.whenSet().toCompletableFuture().get(1, TimeUnit.SECONDS))
                .contains(DaemonStoppingReason.RESOURCE_DELETED);
    }

    @Test
    void awaitWithoutTheFlagReturnsFalseAfterItsTimeout() {
        assertThat(new Stopper().await(Duration.ofMillis(20))).isFalse();
        assertThat(new Stopper().await(Duration.ZERO)).isFalse();
    }

    @Test
    void anInterruptedAwaitReturnsAtOnceAndKeepsTheInterrupt() {
        Stopper stopper = new Stopper();
        Thread.currentThread().interrupt();
        try {
            assertThat(stopper.await(Duration.ofMinutes(5))).isFalse();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
