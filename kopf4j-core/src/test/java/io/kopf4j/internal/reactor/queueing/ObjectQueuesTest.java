package io.kopf4j.internal.reactor.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import io.kopf4j.internal.watching.WatchEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Kopf's queueing with a fake processor: order, the consistency deadline, the stream pressure. */
class ObjectQueuesTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of("status"), true, true, List.of("list", "watch", "patch"));

    private final OperatorSettings settings = new OperatorSettings();

    private ObjectQueues queues(EventProcessor processor) {
        return new ObjectQueues(KOPFEXAMPLES, processor, new OperatorThreads("test"), settings, new Progress(), new Metrics(null),
                error -> { });
    }

    private static WatchEvent event(String uid, String version) {
        return new WatchEvent("MODIFIED", Map.of("metadata", Map.of("uid", uid, "name", uid, "resourceVersion", version)));
    }

    @Test
    void everyEventOfAnObjectIsProcessedInOrderEvenWhileItIsBusy() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        List<String> seen = new CopyOnWriteArrayList<>();
        ObjectQueues queues = queues((event, pressure, deadline) -> {
            seen.add(event.uid() + ":" + event.resourceVersion());
            if (event.resourceVersion().equals("1")) {
                release.await(10, TimeUnit.SECONDS);
            }
            return null;
        });
        queues.dispatch(event("a", "1"));
        await().until(() -> seen.contains("a:1"));
        for (int version = 2; version <= 5; version++) {
            queues.dispatch(event("a", String.valueOf(version)));
        }
        queues.dispatch(event("b", "1"));
        await().until(() -> seen.contains("b:1"));
        assertThat(seen).as("another object is not held up by a busy one").doesNotContain("a:2");
        release.countDown();
        await().untilAsserted(() -> assertThat(seen).containsSubsequence("a:1", "a:2", "a:3", "a:4", "a:5"));
        queues.stop();
    }

    @Test
    void idleMeansNoMatchingObjectInHand() {
        CountDownLatch releaseA = new CountDownLatch(1);
        CountDownLatch releaseB = new CountDownLatch(1);
        List<String> started = new CopyOnWriteArrayList<>();
        ObjectQueues queues = queues((event, pressure, deadline) -> {
            started.add(event.uid());
            (event.uid().equals("a") ? releaseA : releaseB).await(10, TimeUnit.SECONDS);
            return null;
        });
        queues.dispatch(event("a", "1"));
        queues.dispatch(event("b", "1"));
        await().until(() -> started.containsAll(List.of("a", "b")));
        assertThat(queues.idle("a"::equals)).as("a is in hand").isFalse();
        releaseA.countDown();
        await().until(() -> queues.idle("a"::equals));   // a was put down; b does not matter
        assertThat(queues.idle(key -> true)).as("b is still in hand").isFalse();
        releaseB.countDown();
        await().until(() -> queues.idle(key -> true));
        queues.stop();
    }

    @Test
    void theConsistencyDeadlineLastsUntilOurOwnPatchComesBack() {
        List<Instant> deadlines = new CopyOnWriteArrayList<>();
        ObjectQueues queues = queues((event, pressure, deadline) -> {
            deadlines.add(deadline == null ? Instant.EPOCH : deadline);
            return event.resourceVersion().equals("1") ? "3" : null;
        });
        queues.dispatch(event("a", "1"));
        queues.dispatch(event("a", "2"));
        queues.dispatch(event("a", "3"));
        queues.dispatch(event("a", "4"));
        await().until(() -> deadlines.size() == 4);
        assertThat(deadlines.get(0)).as("nothing awaited at first").isEqualTo(Instant.EPOCH);
        assertThat(deadlines.get(1)).as("our patch (3) not yet seen").isAfter(Instant.now().minusSeconds(1));
        assertThat(deadlines.get(2)).as("the event of our patch itself").isEqualTo(Instant.EPOCH);
        assertThat(deadlines.get(3)).isEqualTo(Instant.EPOCH);
        queues.stop();
    }

    @Test
    void newerEventsCutSleepsShort() {
        List<Duration> unslept = new CopyOnWriteArrayList<>();
        CountDownLatch sleeping = new CountDownLatch(1);
        ObjectQueues queues = queues((event, pressure, deadline) -> {
            if (event.resourceVersion().equals("1")) {
                sleeping.countDown();
                unslept.add(pressure.sleep(Duration.ofSeconds(30)));
            }
            return null;
        });
        queues.dispatch(event("a", "1"));
        await().until(() -> sleeping.getCount() == 0);
        queues.dispatch(event("a", "2"));
        await().until(() -> unslept.size() == 1);
        assertThat(unslept.get(0)).as("woken with most of the sleep left").isGreaterThan(Duration.ofSeconds(20));
        queues.stop();
    }

    @Test
    void anErrorThatEscapesTheProcessingStopsTheOperator() {
        List<Throwable> fatal = new CopyOnWriteArrayList<>();
        ObjectQueues queues = new ObjectQueues(KOPFEXAMPLES, (event, pressure, deadline) -> {
            throw new OutOfMemoryError("simulated");
        }, new OperatorThreads("test"), settings, new Progress(), new Metrics(null), fatal::add);
        queues.dispatch(event("a", "1"));
        await().untilAsserted(() -> assertThat(fatal).singleElement().isInstanceOf(OutOfMemoryError.class));
        queues.stop();
    }
}
