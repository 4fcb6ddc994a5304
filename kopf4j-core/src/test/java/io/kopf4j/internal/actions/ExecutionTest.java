package io.kopf4j.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Body;
import io.kopf4j.Diff;
import io.kopf4j.ErrorsMode;
import io.kopf4j.HandlerFn;
import io.kopf4j.HandlerRetriesError;
import io.kopf4j.HandlerTimeoutError;
import io.kopf4j.Lifecycles;
import io.kopf4j.Memo;
import io.kopf4j.Patch;
import io.kopf4j.PermanentError;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import io.kopf4j.TemporaryError;
import io.kopf4j.internal.intents.ChangingCause;
import io.kopf4j.internal.intents.ChangingHandler;
import io.kopf4j.internal.intents.Filters;
import io.kopf4j.internal.intents.ResourceSelector;
import io.kopf4j.storage.MultiProgressStorage;
import io.kopf4j.storage.ProgressStorage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Kopf's outcome rules: errors modes, retries and timeouts, strict checks and look-ahead. */
class ExecutionTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of(), true, true, List.of("list", "watch", "patch"));
    private final ProgressStorage storage = MultiProgressStorage.smart("kopf.zalando.org");
    private final Execution execution = new Execution(Lifecycles.allAtOnce(), Duration.ofSeconds(60), storage,
            new io.kopf4j.internal.runtime.Metrics(null), null, new io.kopf4j.internal.engines.posting.EventPoster(new io.kopf4j.OperatorSettings.Posting(), new io.kopf4j.internal.runtime.Metrics(null), write -> "ignored"), null);

    private static ChangingHandler handler(ErrorsMode errors, Duration timeout, Integer retries, HandlerFn fn) {
        return new ChangingHandler("h", Reason.CREATE, false, false, false, null, errors, timeout, retries, null, null,
                Filters.NONE, ResourceSelector.parse("kopfexamples"), fn, "test");
    }

    /** Runs the handler once on an object whose stored record says it already made {@code attempts} attempts. */
    private Outcome run(ChangingHandler handler, int attempts, Instant started) {
        String record = "{\"started\":\"" + io.kopf4j.storage.ProgressRecord.format(started) + "\",\"purpose\":\"create\","
                + "\"retries\":" + attempts + ",\"success\":false,\"failure\":false}";
        Map<String, Object> raw = Map.of("metadata", Map.of("name", "x", "annotations", Map.of("kopf.zalando.org/h", record)));
        ChangingCause cause = new ChangingCause(KOPFEXAMPLES, raw, new Body(raw), new Patch(), LoggerFactory.getLogger("test"), new Memo(),
                Reason.CREATE, false, false, Diff.between(null, Map.of()), null, Map.of());
        State state = State.fromStorage(raw, storage, List.of(handler), LoggerFactory.getLogger("test")).withPurpose("create", List.of()).withHandlers(List.of(handler));
        return execution.runChanging(List.of(handler), state, cause).get("h");
    }

    @Test
    void arbitraryExceptionsFollowTheErrorsMode() {
        HandlerFn failing = context -> {
            throw new IllegalStateException("boom");
        };
        Outcome temporary = run(handler(ErrorsMode.TEMPORARY, null, null, failing), 0, Instant.now());
        assertThat(temporary.finished()).isFalse();
        assertThat(temporary.delay()).isEqualTo(Duration.ofSeconds(60));
        Outcome permanent = run(handler(ErrorsMode.PERMANENT, null, null, failing), 0, Instant.now());
        assertThat(permanent.finished()).isTrue();
        assertThat(permanent.error()).hasMessage("boom");
        assertThat(run(handler(ErrorsMode.IGNORED, null, null, failing), 0, Instant.now()).succeeded()).isTrue();
    }

    @Test
    void theOperatorsDefaultBackoffIsForArbitraryExceptionsOnlyAsKopfs() {
        Execution quicker = new Execution(Lifecycles.allAtOnce(), Duration.ofSeconds(5), storage,
                new io.kopf4j.internal.runtime.Metrics(null), null, new io.kopf4j.internal.engines.posting.EventPoster(
                        new io.kopf4j.OperatorSettings.Posting(), new io.kopf4j.internal.runtime.Metrics(null), write -> "ignored"),
                null);
        ChangingHandler failing = handler(null, null, null, context -> {
            throw new IllegalStateException("boom");
        });
        ChangingHandler temporary = handler(null, null, null, context -> {
            throw new TemporaryError("later");
        });
        Map<String, Object> raw = Map.of("metadata", Map.of("name", "x"));
        ChangingCause cause = new ChangingCause(KOPFEXAMPLES, raw, new Body(raw), new Patch(), LoggerFactory.getLogger("test"),
                new Memo(), Reason.CREATE, false, false, Diff.between(null, Map.of()), null, Map.of());
        State state = State.fromScratch().withHandlers(List.of(failing));
        assertThat(quicker.runChanging(List.of(failing), state, cause).get("h").delay()).isEqualTo(Duration.ofSeconds(5));
        assertThat(quicker.runChanging(List.of(temporary), state, cause).get("h").delay())
                .as("a TemporaryError keeps its own default").isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void theRetriesLimitLooksOneAttemptAhead() {
        HandlerFn failing = context -> {
            throw new IllegalStateException("boom");
        };
        assertThat(run(handler(null, null, 3, failing), 1, Instant.now()).finished()).as("attempt 2 of 3").isFalse();
        Outcome last = run(handler(null, null, 3, failing), 2, Instant.now());
        assertThat(last.finished()).as("attempt 3 of 3 would be the last").isTrue();
        assertThat(last.error()).isInstanceOf(HandlerRetriesError.class).hasMessageContaining("it would exceed 3 retries");
    }

    @Test
    void theTimeoutLooksOneDelayAhead() {
        HandlerFn slow = context -> {
            throw new TemporaryError("later", Duration.ofSeconds(20));
        };
        assertThat(run(handler(null, Duration.ofSeconds(60), null, slow), 0, Instant.now()).finished()).isFalse();
        Outcome timedOut = run(handler(null, Duration.ofSeconds(10), null, slow), 0, Instant.now());
        assertThat(timedOut.error()).isInstanceOf(HandlerTimeoutError.class).hasMessageContaining("will time out after 10 seconds");
    }

    @Test
    void exhaustedHandlersFailWithoutBeingCalled() {
        AtomicInteger calls = new AtomicInteger();
        HandlerFn counting = context -> calls.incrementAndGet();
        assertThat(run(handler(null, null, 2, counting), 2, Instant.now()).error()).isInstanceOf(HandlerRetriesError.class);
        assertThat(run(handler(null, Duration.ofSeconds(1), null, counting), 0, Instant.now().minusSeconds(5)).error())
                .isInstanceOf(HandlerTimeoutError.class).hasMessageContaining("has timed out after");
        assertThat(calls).hasValue(0);
    }

    @Test
    void theRetryCountReachesTheHandler() {
        assertThat(run(handler(null, null, null, context -> "attempt " + context.retry()), 4, Instant.now()).result())
                .isEqualTo("attempt 4");
    }

    @Test
    void outcomesAreLoggedWithKopfsLines() {
        ObjectFixture object = new ObjectFixture(Map.of());
        object.annotate("kopf.zalando.org/late", "{\"started\":\"" + io.kopf4j.storage.ProgressRecord.format(
                Instant.now().minusSeconds(5)) + "\",\"purpose\":\"create\",\"retries\":1,\"success\":false,\"failure\":false}");
        object.handle(List.of(
                named("arbitrary", null, null, context -> {
                    throw new IllegalStateException("boom");
                }),
                new ChangingHandler("quick", Reason.CREATE, false, false, false, null, null, null, null,
                        Duration.ofMillis(1500), null, Filters.NONE, ResourceSelector.parse("kopfexamples"), context -> {
                            throw new IllegalStateException("boom");
                        }, "test"),
                named("refused", null, null, context -> {
                    throw new PermanentError("no");
                }),
                named("late", Duration.ofSeconds(1), null, context -> null),
                named("fine", null, null, context -> null)));

        assertThat(object.log()).contains(
                "Handler 'arbitrary' failed with an exception and will try again in 60 seconds: boom",
                "Handler 'quick' failed with an exception and will try again in 1.5 seconds: boom",
                "Handler 'refused' failed permanently: no",
                "Handler 'fine' succeeded.");
        assertThat(object.loggedWith("Handler 'arbitrary' failed")).as("the stack trace").hasMessage("boom");
        assertThat(object.log()).anySatisfy(line ->
                assertThat(line).matches("Handler 'late' has timed out after 0:00:0[5-9]\\.\\d{6}\\."));
    }

    private static ChangingHandler named(String id, Duration timeout, Integer retries, HandlerFn fn) {
        return new ChangingHandler(id, Reason.CREATE, false, false, false, null, null, timeout, retries, null, null,
                Filters.NONE, ResourceSelector.parse("kopfexamples"), fn, "test");
    }
}
