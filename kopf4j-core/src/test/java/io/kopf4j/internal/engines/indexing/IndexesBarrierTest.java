package io.kopf4j.internal.engines.indexing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.internal.reactor.processing.IndexesBarrier;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The barrier before the handlers: closed until the listings are delivered, and again while a new one is due. */
class IndexesBarrierTest {
    @Test
    void handlersWaitUntilTheIndexedResourcesAreListed() throws Exception {
        CountDownLatch listed = new CountDownLatch(1);
        IndexesBarrier barrier = new IndexesBarrier(true, timeout -> listed.await(timeout.toNanos(), TimeUnit.NANOSECONDS));
        AtomicBoolean passed = new AtomicBoolean();
        Thread handler = Thread.ofVirtual().start(() -> {
            try {
                barrier.await();
                passed.set(true);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(barrier.ready()).isFalse();
        assertThat(handler.join(Duration.ofMillis(200))).isFalse();
        assertThat(passed).isFalse();

        listed.countDown();
        Awaitility.await().atMost(Duration.ofSeconds(5)).untilTrue(passed);
        assertThat(barrier.ready()).isTrue();
    }

    @Test
    void aWatcherAddedLaterClosesTheBarrierUntilItsListingIsDelivered() throws Exception {
        AtomicBoolean allListed = new AtomicBoolean(true);
        IndexesBarrier barrier = new IndexesBarrier(true, timeout -> allListed.get());
        barrier.await();
        assertThat(barrier.ready()).isTrue();

        allListed.set(false);   // e.g. a namespace appeared: its watcher lists
        assertThat(barrier.ready()).isFalse();
        Thread handler = Thread.ofVirtual().start(() -> {
            try {
                barrier.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(handler.join(Duration.ofMillis(200))).as("waits for the new listing").isFalse();
        allListed.set(true);
        assertThat(handler.join(Duration.ofSeconds(5))).isTrue();
        assertThat(barrier.ready()).isTrue();
    }

    @Test
    void withoutIndexesTheBarrierIsOpen() throws InterruptedException {
        IndexesBarrier barrier = new IndexesBarrier(false, timeout -> false);
        barrier.await();
        assertThat(barrier.ready()).isTrue();
    }
}
