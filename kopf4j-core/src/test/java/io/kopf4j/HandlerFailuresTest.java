package io.kopf4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.internal.actions.ObjectFixture;
import io.kopf4j.internal.actions.Outcome;
import io.kopf4j.internal.intents.ChangingHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerScanner;
import io.kopf4j.internal.intents.HandlerSpec;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What handlers throw reaches the outcome as thrown, from both front-ends (annotated methods called
 * by reflection, and functions): Java Errors included, their own message stored and logged.
 */
class HandlerFailuresTest {
    private static final String RETRY_LINE =
            "Handler 'create' failed with an exception and will try again in 60 seconds: invariant broken";

    public static class Annotated {
        @On.Create("kopfexamples")
        public void create() {
            throw new AssertionError("invariant broken");
        }
    }

    public static class AnnotatedChecked {
        @On.Create("kopfexamples")
        public void create() throws IOException {
            throw new IOException("disk full");
        }
    }

    public static class AnnotatedOutOfMemory {
        @On.Create("kopfexamples")
        public void create() {
            throw new OutOfMemoryError("Java heap space");
        }
    }

    private static ChangingHandler annotated(Class<?> type) {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(type, registry);
        return registry.changingHandlers(ObjectFixture.KOPFEXAMPLES).getFirst();
    }

    private static ChangingHandler function(HandlerFn function) {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerSpec.described(Handler.create("kopfexamples").id("create").handle(function).description()).register(function, registry);
        return registry.changingHandlers(ObjectFixture.KOPFEXAMPLES).getFirst();
    }

    private static void assertRetriedWithItsOwnMessage(ChangingHandler handler) {
        ObjectFixture object = new ObjectFixture(Map.of());
        Outcome outcome = object.handle(List.of(handler)).get("create");
        assertThat(outcome.finished()).isFalse();
        assertThat(outcome.error()).isInstanceOf(AssertionError.class).hasMessage("invariant broken");
        assertThat(object.record("create")).contains("\"message\":\"invariant broken\"");
        assertThat(object.log()).contains(RETRY_LINE);
        assertThat(object.loggedWith(RETRY_LINE)).as("the stack trace").isInstanceOf(AssertionError.class);
    }

    @Test
    void anErrorFromAnAnnotatedMethodIsAFailureWithItsOwnMessage() {
        assertRetriedWithItsOwnMessage(annotated(Annotated.class));
    }

    @Test
    void anErrorFromAFunctionIsAFailureWithItsOwnMessage() {
        assertRetriedWithItsOwnMessage(function(context -> {
            throw new AssertionError("invariant broken");
        }));
    }

    @Test
    void aCheckedExceptionFromAnAnnotatedMethodIsNotWrapped() {
        ObjectFixture object = new ObjectFixture(Map.of());
        Outcome outcome = object.handle(List.of(annotated(AnnotatedChecked.class))).get("create");
        assertThat(outcome.error()).isInstanceOf(IOException.class).hasMessage("disk full");
        assertThat(object.record("create")).contains("\"message\":\"disk full\"");
    }

    public static class AnnotatedRecursion {
        @On.Create("kopfexamples")
        public void create() {
            recurse(0);
        }

        private static int recurse(int depth) {
            return recurse(depth + 1) + 1;
        }
    }

    @Test
    void aStackOverflowIsAFailureRetriedLikeAnyOther() {
        ObjectFixture object = new ObjectFixture(Map.of());
        Outcome outcome = object.handle(List.of(annotated(AnnotatedRecursion.class))).get("create");
        assertThat(outcome.finished()).isFalse();
        assertThat(outcome.error()).isInstanceOf(StackOverflowError.class);
        assertThat(object.record("create")).contains("\"retries\":1");
        assertThat(object.log()).contains("Handler 'create' failed with an exception and will try again in 60 seconds:"
                + " java.lang.StackOverflowError");
    }

    @Test
    void anOutOfMemoryErrorIsThrownOnToStopTheOperator() {
        OutOfMemoryError fromFunction = new OutOfMemoryError("Java heap space");
        for (ChangingHandler handler : List.of(annotated(AnnotatedOutOfMemory.class), function(context -> {
            throw fromFunction;
        }))) {
            ObjectFixture object = new ObjectFixture(Map.of());
            assertThatThrownBy(() -> object.handle(List.of(handler))).isInstanceOf(OutOfMemoryError.class)
                    .hasMessage("Java heap space");
        }
    }
}
