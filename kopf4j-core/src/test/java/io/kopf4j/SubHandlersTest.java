package io.kopf4j;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.internal.actions.ObjectFixture;
import io.kopf4j.internal.actions.Outcome;
import io.kopf4j.internal.intents.ChangingHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerSpec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Sub-handlers (Kopf's kopf.register / @kopf.subhandler / kopf.execute) with their options and progress. */
class SubHandlersTest {
    private static ChangingHandler parent(HandlerFn function) {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerSpec.described(Handler.create("kopfexamples").id("create").handle(function).description()).register(function, registry);
        return registry.changingHandlers(ObjectFixture.KOPFEXAMPLES).getFirst();
    }

    @Test
    void anInvalidSubHandlerFailsItsRegistrationInTheParentNamingIt() {
        AtomicInteger afterwards = new AtomicInteger();
        ChangingHandler parent = parent(context -> {
            context.register(SubHandler.id("s").retries(0).handle(child -> "never"));
            afterwards.incrementAndGet();
            return "parent";
        });
        ObjectFixture object = new ObjectFixture(Map.of());

        Outcome outcome = object.handle(List.of(parent)).get("create");
        assertThat(outcome.error()).isInstanceOf(InvalidHandlerException.class)
                .hasMessage("Sub-handler 's': retries must be at least 1, got 0");
        assertThat(afterwards).as("the parent stops at the registration").hasValue(0);
        assertThat(object.status()).doesNotContainKey("create/s");
    }

    @Test
    void executeRunsInlineFunctionsAndReturnsWhenAllHaveFinished() {
        AtomicInteger aCalls = new AtomicInteger();
        AtomicInteger afterwards = new AtomicInteger();
        ChangingHandler parent = parent(context -> {
            Map<String, HandlerFn> functions = new LinkedHashMap<>();
            functions.put("a", a -> "done a " + aCalls.incrementAndGet());
            functions.put("b", b -> {
                if (b.retry() == 0) {
                    throw new TemporaryError("b is not ready", Duration.ZERO);
                }
                return "done b";
            });
            context.execute(functions);
            afterwards.incrementAndGet();
            return "parent";
        });
        ObjectFixture object = new ObjectFixture(Map.of());

        Outcome first = object.handle(List.of(parent)).get("create");
        assertThat(first.finished()).isFalse();
        assertThat(first.error()).isInstanceOf(TemporaryError.class);
        assertThat(afterwards).as("the code after execute waits for the sub-handlers").hasValue(0);
        assertThat(object.record("create")).contains("\"subrefs\":[\"create/a\",\"create/b\"]");
        assertThat(object.record("create/a")).contains("\"success\":true");
        assertThat(object.record("create/b")).contains("\"retries\":1", "\"message\":\"b is not ready\"");
        assertThat(object.log()).contains("Handler 'create/b' failed temporarily: b is not ready",
                "Handler 'create' has unfinished sub-handlers. Will retry soon.");

        assertThat(object.handle(List.of(parent)).get("create").succeeded()).isTrue();
        assertThat(afterwards).hasValue(1);
        assertThat(aCalls).as("a finished handler is not called again").hasValue(1);
        assertThat(object.status()).containsEntry("create", "parent").containsEntry("create/a", "done a 1")
                .containsEntry("create/b", "done b");
    }

    @Test
    void subHandlersHaveTheirOwnOptionsAndFilters() {
        AtomicInteger labelled = new AtomicInteger();
        ChangingHandler parent = parent(context -> {
            context.register(SubHandler.id("flaky").retries(1).handle(child -> {
                throw new IllegalStateException("nope");
            }));
            context.register(SubHandler.id("tolerated").errors(ErrorsMode.IGNORED).handle(child -> {
                throw new IllegalStateException("never mind");
            }));
            context.register(SubHandler.id("web-only").label("app", "web").handle(child -> labelled.incrementAndGet()));
            context.register(SubHandler.id("param").param(42).handle(HandlerContext::param));
            return null;
        });
        ObjectFixture object = new ObjectFixture(Map.of("app", "db"));

        Outcome outcome = object.handle(List.of(parent)).get("create");

        assertThat(outcome.succeeded()).as("as in Kopf, failed sub-handlers are finished too").isTrue();
        assertThat(object.log()).contains(
                "Handler 'create/flaky' failed with an exception and will stop now (it would exceed 1 retries on the"
                        + " next attempt): nope",
                "Handler 'create/tolerated' failed with an exception and will ignore it: never mind");
        assertThat(object.record("create/flaky")).contains("\"failure\":true");
        assertThat(object.record("create/tolerated")).contains("\"success\":true");
        assertThat(object.record("create/web-only")).as("filtered out: not run, no record").isNull();
        assertThat(labelled).hasValue(0);
        assertThat(object.status()).containsEntry("create/param", 42);
    }

    @Test
    void subSubHandlersAreReferencedByEveryAncestor() {
        ChangingHandler parent = parent(context -> {
            context.register("child", child -> {
                child.execute(List.of(SubHandler.id("grandchild").handle(grandchild -> {
                    throw new TemporaryError("later", Duration.ofSeconds(30));
                })));
                return null;
            });
            return null;
        });
        ObjectFixture object = new ObjectFixture(Map.of());

        Outcome outcome = object.handle(List.of(parent)).get("create");

        assertThat(outcome.finished()).isFalse();
        assertThat(outcome.delay()).isBetween(Duration.ofSeconds(29), Duration.ofSeconds(30));
        assertThat(object.record("create")).contains("\"subrefs\":[\"create/child\",\"create/child/grandchild\"]");
        assertThat(object.record("create/child")).contains("\"subrefs\":[\"create/child/grandchild\"]");
    }
}
