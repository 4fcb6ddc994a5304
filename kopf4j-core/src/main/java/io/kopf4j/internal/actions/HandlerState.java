package io.kopf4j.internal.actions;

import io.kopf4j.storage.ProgressRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.TreeSet;

/**
 * One handler's progress within a change, as Kopf's {@code HandlerState}: immutable; "active"
 * means it takes part in the current cause (others are only counted and purged).
 *
 * @param origin the record as it was read from storage, to write only what changed
 */
public record HandlerState(boolean active, Instant started, Instant stopped, Instant delayed, String purpose,
                           int retries, boolean success, boolean failure, String message, List<String> subrefs,
                           ProgressRecord origin) {
    public HandlerState {
        subrefs = List.copyOf(new TreeSet<>(subrefs));
    }

    /** Now, at the microsecond precision that the stored timestamps have. */
    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    static HandlerState fromScratch(String purpose) {
        return new HandlerState(true, now(), null, null, purpose, 0, false, false, null, List.of(), null);
    }

    static HandlerState fromStorage(ProgressRecord record) {
        return new HandlerState(false, record.started() == null ? now() : record.started(), record.stopped(),
                record.delayed(), record.purpose(), record.retries(), record.success(), record.failure(),
                record.message(), record.subrefs(), record);
    }

    ProgressRecord forStorage() {
        return new ProgressRecord(started, stopped, delayed, purpose, retries, success, failure, message, subrefs);
    }

    HandlerState asActive() {
        return new HandlerState(true, started, stopped, delayed, purpose, retries, success, failure, message, subrefs, origin);
    }

    HandlerState withPurpose(String newPurpose) {
        return new HandlerState(active, started, stopped, delayed, newPurpose, retries, success, failure, message, subrefs, origin);
    }

    HandlerState withOutcome(Outcome outcome) {
        Instant now = now();
        TreeSet<String> allSubrefs = new TreeSet<>(subrefs);
        allSubrefs.addAll(outcome.subrefs());
        return new HandlerState(active, started == null ? now : started,
                stopped != null ? stopped : outcome.finished() ? now : null,
                outcome.delay() == null ? null : now.plus(outcome.delay()),
                purpose, retries + 1, outcome.finished() && outcome.error() == null,
                outcome.finished() && outcome.error() != null, outcome.error() == null ? null : messageOf(outcome.error()),
                List.copyOf(allSubrefs), origin);
    }

    public boolean finished() {
        return success || failure;
    }

    /** Due to run now: not finished, and not delayed into the future. */
    public boolean awakened() {
        return !finished() && (delayed == null || !delayed.isAfter(Instant.now()));
    }

    public Duration runtime() {
        return Duration.between(started, Instant.now());
    }

    /** Kopf's {@code str(e) or repr(e)}: the message, or the exception's class if it has none. */
    public static String messageOf(Throwable error) {
        return error.getMessage() == null ? error.toString() : error.getMessage();
    }
}
