package io.kopf4j.internal.engines.posting;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.OperatorSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * client-go's correlation, on a fake clock (seconds since the epoch, for both the occurrences'
 * times and the schedule): identical events counted into one Event, similar ones combined, each
 * object's writes budgeted, the queue bounded.
 */
class EventCorrelatorTest {
    private static final Map<String, Object> EX = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "name", "ex", "uid", "u1", "namespace", "ns");
    private static final Map<String, Object> OTHER = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "name", "other", "uid", "u2", "namespace", "ns");

    private final OperatorSettings.Posting settings = new OperatorSettings.Posting();
    private int names;

    private static Instant at(long seconds) {
        return Instant.EPOCH.plusSeconds(seconds);
    }

    private static K8sEvent occurrence(Map<String, Object> object, String type, String reason, String message, long at) {
        return new K8sEvent(object, type, reason, message, at(at));
    }

    private static EventCorrelator.Outcome offer(EventCorrelator correlator, Map<String, Object> object, String message, long at) {
        return correlator.offer(occurrence(object, "Normal", "Logging", message, at), at(at));
    }

    /** Takes every write due at this time, each written at once: new Events named event-1, event-2, ... */
    private List<EventWrite> writeAllDue(EventCorrelator correlator, long at) {
        List<EventWrite> writes = new ArrayList<>();
        for (Optional<EventWrite> write = correlator.take(at(at)); write.isPresent(); write = correlator.take(at(at))) {
            writes.add(write.get());
            correlator.written(write.get().name() != null ? write.get().name() : "event-" + ++names, at(at));
        }
        return writes;
    }

    @Test
    void identicalEventsAreOneEventWhoseCountAndLastTimestampGrowOnceARepeatInterval() {
        EventCorrelator correlator = new EventCorrelator(settings);
        assertThat(offer(correlator, EX, "Timer 'tick' succeeded.", 0)).isEqualTo(EventCorrelator.Outcome.NEW);
        assertThat(writeAllDue(correlator, 0)).containsExactly(new EventWrite(EX, "Normal", "Logging",
                "Timer 'tick' succeeded.", 1, at(0), at(0), null));
        for (long second = 1; second < 120; second++) {
            assertThat(offer(correlator, EX, "Timer 'tick' succeeded.", second)).isEqualTo(EventCorrelator.Outcome.COUNTED);
            assertThat(writeAllDue(correlator, second)).as("writes at %d s", second).hasSize(second == 60 ? 1 : 0);
        }
        assertThat(correlator.nextDue()).isEqualTo(at(120));
        assertThat(writeAllDue(correlator, 120)).containsExactly(new EventWrite(EX, "Normal", "Logging",
                "Timer 'tick' succeeded.", 120, at(0), at(119), "event-1"));
    }

    @Test
    void repeatsOfAnEventInFlightGoIntoItsNextWriteNotANewEvent() {
        EventCorrelator correlator = new EventCorrelator(settings);
        offer(correlator, EX, "same", 0);
        EventWrite post = correlator.take(at(0)).orElseThrow();
        assertThat(offer(correlator, EX, "same", 0)).isEqualTo(EventCorrelator.Outcome.COUNTED);
        correlator.written("event-1", at(1));
        assertThat(correlator.take(at(60))).isEmpty();
        assertThat(correlator.take(at(61))).hasValueSatisfying(patch -> {
            assertThat(post.name()).isNull();
            assertThat(patch.name()).isEqualTo("event-1");
            assertThat(patch.count()).isEqualTo(2);
        });
    }

    @Test
    void anOccurrenceAfterAQuietRepeatIntervalIsCountedAtOnce() {
        settings.repeatInterval = Duration.ofSeconds(10);
        EventCorrelator correlator = new EventCorrelator(settings);
        offer(correlator, EX, "Handler 'update' succeeded.", 0);
        writeAllDue(correlator, 0);
        assertThat(offer(correlator, EX, "Handler 'update' succeeded.", 30)).isEqualTo(EventCorrelator.Outcome.COUNTED);
        assertThat(writeAllDue(correlator, 30)).extracting(EventWrite::name, EventWrite::count)
                .containsExactly(tuple("event-1", 2));
    }

    @Test
    void anEventQuietForTheCorrelationWindowStartsANewEvent() {
        EventCorrelator correlator = new EventCorrelator(settings);
        offer(correlator, EX, "once in a while", 0);
        writeAllDue(correlator, 0);
        assertThat(offer(correlator, EX, "once in a while", 601)).isEqualTo(EventCorrelator.Outcome.NEW);
        assertThat(writeAllDue(correlator, 601)).extracting(EventWrite::name, EventWrite::count)
                .containsExactly(tuple(null, 1));
    }

    @Test
    void similarEventsAreCombinedFromTheTenthDifferentMessageOnAsInClientGo() {
        EventCorrelator correlator = new EventCorrelator(settings);
        for (int i = 1; i <= 12; i++) {
            offer(correlator, EX, "message " + i, 0);
        }
        offer(correlator, EX, "message 3", 0);   // seen before: its own Event, counted
        List<EventWrite> writes = writeAllDue(correlator, 0);
        assertThat(writes).extracting(EventWrite::message, EventWrite::count).containsExactly(
                tuple("message 1", 1), tuple("message 2", 1), tuple("message 3", 2), tuple("message 4", 1),
                tuple("message 5", 1), tuple("message 6", 1), tuple("message 7", 1), tuple("message 8", 1),
                tuple("message 9", 1), tuple("(combined from similar events): message 12", 3));
        assertThat(offer(correlator, EX, "message 13", 1)).isEqualTo(EventCorrelator.Outcome.COUNTED);
        assertThat(writeAllDue(correlator, 60)).extracting(EventWrite::message, EventWrite::count, EventWrite::name)
                .containsExactly(tuple("(combined from similar events): message 13", 4,
                        "event-10"));
    }

    @Test
    void similarMeansTheSameObjectTypeAndReasonAndAQuietWindowStartsTheGroupAfresh() {
        EventCorrelator correlator = new EventCorrelator(settings);
        for (int i = 1; i <= 9; i++) {
            offer(correlator, EX, "message " + i, 0);
        }
        assertThat(correlator.offer(occurrence(EX, "Normal", "OtherReason", "message 10", 0), at(0)))
                .isEqualTo(EventCorrelator.Outcome.NEW);
        assertThat(correlator.offer(occurrence(EX, "Warning", "Logging", "message 10", 0), at(0)))
                .isEqualTo(EventCorrelator.Outcome.NEW);
        assertThat(offer(correlator, OTHER, "message 10", 0)).isEqualTo(EventCorrelator.Outcome.NEW);
        assertThat(offer(correlator, EX, "message 10", 601)).isEqualTo(EventCorrelator.Outcome.NEW);
        assertThat(writeAllDue(correlator, 601)).extracting(EventWrite::message).noneMatch(m -> m.startsWith("(combined"));
    }

    @Test
    void eachObjectAndTypeWritesItsBurstThenOneARefillIntervalAndTheRestWaitsCounted() {
        settings.burst = 3;
        settings.refillInterval = Duration.ofSeconds(60);
        EventCorrelator correlator = new EventCorrelator(settings);
        for (String reason : List.of("A", "B", "C", "D", "E")) {
            correlator.offer(occurrence(EX, "Normal", reason, "m", 0), at(0));
        }
        correlator.offer(occurrence(EX, "Warning", "W", "m", 0), at(0));
        correlator.offer(occurrence(OTHER, "Normal", "A", "m", 0), at(0));
        assertThat(writeAllDue(correlator, 0)).extracting(write -> write.reference().get("name") + " " + write.type()
                + " " + write.reason()).containsExactly("ex Normal A", "ex Normal B", "ex Normal C", "ex Warning W",
                "other Normal A");
        correlator.offer(occurrence(EX, "Normal", "D", "m", 30), at(30));
        assertThat(correlator.nextDue()).isEqualTo(at(60));
        assertThat(writeAllDue(correlator, 59)).isEmpty();
        assertThat(writeAllDue(correlator, 60)).extracting(EventWrite::reason, EventWrite::count)
                .containsExactly(tuple("D", 2));
        assertThat(writeAllDue(correlator, 119)).isEmpty();
        assertThat(writeAllDue(correlator, 120)).extracting(EventWrite::reason).containsExactly("E");
    }

    @Test
    void aThousandTimersAtOneSecondWriteOncePerObjectPerMinuteAndLessOnceTheBudgetIsSpent() {
        EventCorrelator correlator = new EventCorrelator(settings);
        int[] writes = new int[2];   // in the first half hour, in the second
        int dropped = 0;
        for (long second = 0; second < 3600; second++) {
            for (int timer = 0; timer < 1000; timer++) {
                Map<String, Object> object = Map.of("kind", "KopfExample", "name", "ex-" + timer, "namespace", "ns");
                dropped += offer(correlator, object, "Timer 'tick' succeeded.", second) == EventCorrelator.Outcome.DROPPED ? 1 : 0;
            }
            writes[second < 1800 ? 0 : 1] += writeAllDue(correlator, second).size();
        }
        assertThat(dropped).isZero();
        assertThat(writes[0]).as("writes in the first 30 minutes: a POST, then a PATCH a minute").isEqualTo(1000 * 30);
        assertThat(writes[1]).as("writes in the second 30 minutes: the budget's 1 per 5 minutes").isLessThanOrEqualTo(1000 * 7);
    }

    @Test
    void theQueueHoldsAtMostQueueSizeEventsAndDropsNewOnesWhenAllWait() {
        settings.queueSize = 2;
        EventCorrelator correlator = new EventCorrelator(settings);
        assertThat(offer(correlator, EX, "one", 0)).isEqualTo(EventCorrelator.Outcome.NEW);
        assertThat(offer(correlator, EX, "two", 0)).isEqualTo(EventCorrelator.Outcome.NEW);
        assertThat(offer(correlator, EX, "three", 0)).isEqualTo(EventCorrelator.Outcome.DROPPED);
        assertThat(offer(correlator, EX, "one", 0)).as("a repeat takes no room").isEqualTo(EventCorrelator.Outcome.COUNTED);
        assertThat(writeAllDue(correlator, 0)).extracting(EventWrite::message, EventWrite::count)
                .containsExactly(tuple("one", 2), tuple("two", 1));
        assertThat(offer(correlator, EX, "three", 1)).as("written Events make room").isEqualTo(EventCorrelator.Outcome.NEW);
        assertThat(offer(correlator, EX, "four", 1)).isEqualTo(EventCorrelator.Outcome.NEW);
        assertThat(writeAllDue(correlator, 1)).extracting(EventWrite::message).containsExactly("three", "four");
    }

    @Test
    void aFailedWriteLosesItsOccurrencesAndTheNextOnePostsAgain() {
        EventCorrelator correlator = new EventCorrelator(settings);
        offer(correlator, EX, "lost", 0);
        correlator.take(at(0)).orElseThrow();
        correlator.written(null, at(0));
        offer(correlator, EX, "lost", 60);
        assertThat(writeAllDue(correlator, 60)).extracting(EventWrite::name, EventWrite::count)
                .containsExactly(tuple(null, 2));
    }

    @Test
    void drainingWritesEverythingQueuedRegardlessOfTimeAndBudget() {
        settings.burst = 1;
        EventCorrelator correlator = new EventCorrelator(settings);
        offer(correlator, EX, "first", 0);
        writeAllDue(correlator, 0);
        offer(correlator, EX, "first", 1);
        offer(correlator, EX, "second", 1);
        assertThat(correlator.take(at(1))).isEmpty();
        List<String> drained = new ArrayList<>();
        for (Optional<EventWrite> write = correlator.drain(); write.isPresent(); write = correlator.drain()) {
            drained.add(write.get().message() + " " + write.get().count());
            correlator.written("drained", at(1));
        }
        assertThat(drained).containsExactlyInAnyOrder("first 2", "second 1");
    }

    private static Tuple tuple(Object... values) {
        return Tuple.tuple(values);
    }
}
