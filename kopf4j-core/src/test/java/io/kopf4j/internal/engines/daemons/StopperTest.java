package io.kopf4j.internal.engines.daemons;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.DaemonStoppingReason;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
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
        assertThat(new Stopper().await(Duration.ofSeconds(Long.MIN_VALUE))).as("a timeout past nanoseconds, negative").isFalse();
    }

    @Test
    void aTimeoutTooLongForNanosecondsWaitsForTheFlagAsAwaitWithoutOneDoes() throws Exception {
        Stopper stopper = new Stopper();
        CompletableFuture<Boolean> forever = new CompletableFuture<>();
        Thread timed = Thread.ofVirtual().start(() -> forever.complete(stopper.await(Duration.ofSeconds(Long.MAX_VALUE))));
        Thread untimed = Thread.ofVirtual().start(stopper::await);
        // Both parked without a deadline before the flag is set: a wait that ended early fails here.
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> timed.getState() == Thread.State.WAITING
                && untimed.getState() == Thread.State.WAITING);

        stopper.set(DaemonStoppingReason.OPERATOR_EXITING);
        assertThat(forever.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(untimed.join(Duration.ofSeconds(10))).as("the untimed wait ended").isTrue();
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
