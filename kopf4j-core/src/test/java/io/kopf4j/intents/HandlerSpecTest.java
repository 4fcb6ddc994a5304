package io.kopf4j.intents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.Condition;
import io.kopf4j.ErrorsMode;
import io.kopf4j.HandlerFn;
import io.kopf4j.HandlerKind;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each of Kopf's rules for declaring handlers, checked once, on the specification both front-ends fill. */
class HandlerSpecTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of(), true, true, List.of("list", "watch", "patch"));
    private static final HandlerFn NOTHING = context -> null;

    private static HandlerSpec create() {
        return HandlerSpec.function(HandlerKind.CREATE, "kopfexamples");
    }

    private static ChangingHandler registered(HandlerSpec spec) {
        HandlerRegistry registry = new HandlerRegistry();
        spec.register(NOTHING, registry);
        return registry.changingHandlers(KOPFEXAMPLES).getFirst();
    }

    @Test
    void idsMustNotBeBlankAndBuildersMustGiveOne() {
        String rule = "handlers need an id, not blank: it names the handler's progress and result on the objects,"
                + " so it must stay the same across restarts";
        assertThatThrownBy(() -> create().id(" ")).isInstanceOf(InvalidHandlerException.class)
                .hasMessage("Handler for kopfexamples: " + rule);
        assertThatThrownBy(() -> create().validate()).hasMessage("Handler for kopfexamples: " + rule);
    }

    @Test
    void fieldHandlersNeedAFieldAndABlankFieldIsNone() {
        assertThatThrownBy(() -> HandlerSpec.function(HandlerKind.FIELD, "kopfexamples").id("f").field(" ").validate())
                .hasMessage("Handler for kopfexamples 'f': field handlers need a field, e.g. spec.size");
    }

    @Test
    void indexingFunctionsAreNeverRetriedSoTakeNoTimeoutOrRetriesAndTheirIdIsUnique() {
        HandlerRegistry registry = new HandlerRegistry();
        assertThatThrownBy(() -> HandlerSpec.function(HandlerKind.INDEX, "pods").id("i").retries(3)
                .register(context -> null, registry))
                .hasMessage("Handler for pods 'i': indexing functions take no timeout or retries (they are never retried)");
        HandlerSpec.function(HandlerKind.INDEX, "pods").id("i").register(context -> null, registry);
        assertThatThrownBy(() -> HandlerSpec.function(HandlerKind.INDEX, "configmaps").id("i")
                .register(context -> null, registry)).hasMessageContaining("the id 'i' is already used");
    }

    @Test
    void valueFiltersNeedAField() {
        assertThatThrownBy(() -> create().id("c").current(new Condition.Present()).validate())
                .hasMessage("Handler for kopfexamples 'c': the field's value filters (value, old and new) need a field");
    }

    @Test
    void theValueInAnyStateExcludesTheOldAndNewValues() {
        assertThatThrownBy(() -> create().id("c").field("spec.size").value(new Condition.Exact("3"))
                .old(new Condition.Exact("2")).validate())
                .hasMessage("Handler for kopfexamples 'c': the field's value filter excludes its old and new value"
                        + " filters; use either the value in any state, or the old and new values");
    }

    @Test
    void labelAndAnnotationFiltersNeedAKeyAndTheMessageShowsTheFilterAsWritten() {
        String use = "'; use \"key=value\", \"key\" (present) or \"!key\" (absent)";
        assertThatThrownBy(() -> create().id("c").label("=web"))
                .hasMessage("Handler for kopfexamples 'c': invalid label or annotation filter '=web" + use);
        assertThatThrownBy(() -> create().id("c").annotation("!"))
                .hasMessage("Handler for kopfexamples 'c': invalid label or annotation filter '!" + use);
        assertThatThrownBy(() -> create().id("c").label(" ", new Condition.Matching(v -> true)))
                .hasMessage("Handler for kopfexamples 'c': invalid label or annotation filter '  (a predicate)" + use);
    }

    @Test
    void labelsAndAnnotationsAreParsedFromTheirWrittenForm() {
        assertThat(HandlerSpec.parseKey("app=web")).isEqualTo(Map.entry("app", new Condition.Exact("web")));
        assertThat(HandlerSpec.parseKey("tier")).isEqualTo(Map.entry("tier", new Condition.Present()));
        assertThat(HandlerSpec.parseKey("!legacy")).isEqualTo(Map.entry("legacy", new Condition.Absent()));
        assertThat(HandlerSpec.parseKey("empty=")).isEqualTo(Map.entry("empty", new Condition.Exact("")));
        Filters filters = registered(create().id("c").label("app=web").label("!legacy").annotation("owner")).filters();
        assertThat(filters.labels()).containsExactly(Map.entry("app", new Condition.Exact("web")),
                Map.entry("legacy", new Condition.Absent()));
        assertThat(filters.annotations()).containsExactly(Map.entry("owner", new Condition.Present()));
    }

    @Test
    void timeoutRetriesAndBackoffHaveTheirRanges() {
        HandlerSpec spec = create().id("c");
        assertThatThrownBy(() -> spec.timeout(Duration.ZERO))
                .hasMessage("Handler for kopfexamples 'c': timeout must be positive, got PT0S");
        assertThatThrownBy(() -> spec.retries(0))
                .hasMessage("Handler for kopfexamples 'c': retries must be at least 1, got 0");
        assertThatThrownBy(() -> spec.backoff(Duration.ofSeconds(-1)))
                .hasMessage("Handler for kopfexamples 'c': backoff must not be negative, got PT-1S");
        ChangingHandler handler = registered(spec.timeout(Duration.ofSeconds(5)).retries(1).backoff(Duration.ZERO));
        assertThat(handler.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(handler.retries()).isEqualTo(1);
        assertThat(handler.backoff()).isEqualTo(Duration.ZERO);
    }

    @Test
    void theResourceMustBeAValidSelector() {
        assertThatThrownBy(() -> HandlerSpec.function(HandlerKind.CREATE).id("c").validate())
                .hasMessage("Handler 'c': a resource is given by 1 to 3 strings (e.g. \"kopfexamples\" or \"kopf.dev\","
                        + " \"v1\", \"kopfexamples\"), got 0");
    }

    @Test
    void messagesNameTheHandlerAsItsFrontEndDeclaredIt() throws NoSuchMethodException {
        HandlerSpec annotated = HandlerSpec.annotated(HandlerKind.CREATE, Declared.class.getMethod("resize", int.class),
                "kopfexamples");
        assertThatThrownBy(() -> annotated.retries(0)).hasMessage("Handler Declared.resize(int): retries must be at least 1, got 0");
        assertThatThrownBy(() -> HandlerSpec.function(HandlerKind.SUBHANDLER).id("s").retries(0))
                .hasMessage("Sub-handler 's': retries must be at least 1, got 0");
        assertThatThrownBy(() -> HandlerSpec.function(HandlerKind.LOGIN).id("vault").retries(0))
                .hasMessage("Activity 'vault': retries must be at least 1, got 0");
        assertThatThrownBy(() -> HandlerSpec.function(HandlerKind.STARTUP).id(""))
                .hasMessageStartingWith("Activity (startup): handlers need an id");
    }

    /** A class with a handler method for the annotated specifications (the annotations themselves are not needed). */
    static class Declared {
        public void resize(int retry) {
        }
    }

    @Test
    void idsAreTheMethodNameOrTheIdWithKopfsFieldSuffix() throws NoSuchMethodException {
        HandlerSpec annotated = HandlerSpec.annotated(HandlerKind.UPDATE, Declared.class.getMethod("resize", int.class),
                "kopfexamples").field(" spec.size ");
        ChangingHandler byMethod = registered(annotated);
        assertThat(byMethod.id()).isEqualTo("resize/spec.size");
        assertThat(byMethod.field()).containsExactly("spec", "size");
        assertThat(byMethod.origin()).isEqualTo("Declared.resize(int)");
        assertThat(registered(create().id("c")).id()).isEqualTo("c");
        assertThat(registered(create().id("c")).origin()).isEqualTo("'c' (create kopfexamples)");
    }

    @Test
    void kindsBecomeKopfsReasonsResumesAndFinalizers() {
        ChangingHandler delete = registered(HandlerSpec.function(HandlerKind.DELETE, "kopfexamples").id("d"));
        assertThat(delete.reason()).isEqualTo(Reason.DELETE);
        assertThat(delete.requiresFinalizer()).isTrue();
        assertThat(registered(HandlerSpec.function(HandlerKind.DELETE, "kopfexamples").id("d").optional(true))
                .requiresFinalizer()).isFalse();
        ChangingHandler resume = registered(HandlerSpec.function(HandlerKind.RESUME, "kopfexamples").id("r").deleted(true));
        assertThat(resume.reason()).isNull();
        assertThat(resume.initial()).isTrue();
        assertThat(resume.deleted()).isTrue();
    }

    @Test
    void eventHandlersBecomeWatchingHandlers() {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerSpec.function(HandlerKind.EVENT, "kopfexamples").id("e").param("p").register(NOTHING, registry);
        assertThat(registry.changingHandlers(KOPFEXAMPLES)).isEmpty();
        assertThat(registry.hasWatchingHandlers(KOPFEXAMPLES)).isTrue();
    }

    @Test
    void activitiesKeepTheirOptionsAndKopfsKind() {
        ActivityHandler login = HandlerSpec.function(HandlerKind.LOGIN).id("vault").errors(ErrorsMode.PERMANENT)
                .param("secret").activity(context -> null);
        assertThat(login.kind()).isEqualTo(ActivityHandler.AUTHENTICATION);
        assertThat(login.id()).isEqualTo("vault");
        assertThat(login.errors()).isEqualTo(ErrorsMode.PERMANENT);
        assertThat(login.param()).isEqualTo("secret");
        assertThat(login.origin()).isEqualTo("'vault' (authentication)");
    }

    @Test
    void subHandlersRunUnderTheirParentsIdCauseAndResource() {
        ChangingHandler parent = registered(HandlerSpec.function(HandlerKind.UPDATE, "kopfexamples").id("update"));
        ChangingHandler child = HandlerSpec.function(HandlerKind.SUBHANDLER).id("resize").field("spec.size")
                .under(parent, NOTHING);
        assertThat(child.id()).isEqualTo("update/resize/spec.size");
        assertThat(child.reason()).isEqualTo(Reason.UPDATE);
        assertThat(child.selector()).isEqualTo(parent.selector());
        assertThat(child.requiresFinalizer()).isFalse();
        assertThat(child.origin()).isEqualTo("'update' (update kopfexamples) sub-handler 'resize'");
    }

    @Test
    void eventHandlersTakeNoRetryOptions() {
        HandlerSpec spec = HandlerSpec.function(HandlerKind.EVENT, "kopfexamples").id("spy").retries(3);
        assertThatThrownBy(() -> spec.register(NOTHING, new HandlerRegistry())).isInstanceOf(InvalidHandlerException.class)
                .hasMessageContaining("event handlers take no errors, timeout, retries or backoff");
    }
}
