package io.kopf4j.internal.intents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.Condition;
import io.kopf4j.ErrorsMode;
import io.kopf4j.HandlerDescription;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.HandlerFn;
import io.kopf4j.HandlerKind;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import io.kopf4j.internal.intents.Specs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each of Kopf's rules for declaring handlers, checked once, on the specification both front-ends fill. */
class HandlerSpecTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of(), true, true, List.of("list", "watch", "patch"));
    private static final HandlerFn NOTHING = context -> null;

    private static HandlerSpec create(Option... options) {
        return Specs.spec(HandlerKind.CREATE, List.of("kopfexamples"), options);
    }

    private static HandlerSpec annotated(HandlerKind kind, Option... options) throws NoSuchMethodException {
        return HandlerSpec.annotated(new HandlerDescription(kind, List.of("kopfexamples"), List.of(options)),
                Declared.class.getMethod("resize", int.class));
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
        assertThatThrownBy(() -> create(new Option.Id(" "))).isInstanceOf(InvalidHandlerException.class)
                .hasMessage("Handler for kopfexamples: " + rule);
        assertThatThrownBy(() -> create().validate()).hasMessage("Handler for kopfexamples: " + rule);
    }

    @Test
    void aSelectorIsTheWholeResourceAndOnlyForHandlersOfObjects() {
        io.kopf4j.ResourceMatcher examples = resource -> resource.plural().equals("kopfexamples");
        HandlerRegistry registry = new HandlerRegistry();
        Specs.spec(HandlerKind.CREATE, List.of(), new Option.Id("c"), new Option.Selector(examples)).register(NOTHING, registry);
        assertThat(registry.changingHandlers(KOPFEXAMPLES)).singleElement()
                .satisfies(handler -> assertThat(handler.selector().matcher()).isSameAs(examples));

        assertThatThrownBy(() -> Specs.spec(HandlerKind.CREATE, List.of("kopfexamples"), new Option.Id("c"),
                new Option.Selector(examples)).register(NOTHING, new HandlerRegistry()))
                .hasMessage("Handler for kopfexamples 'c': The callable filter cannot have any other selectors.");
        assertThatThrownBy(() -> Specs.spec(HandlerKind.CHILDREN, List.of(), new Option.Id("c"), new Option.Selector(examples)))
                .hasMessage("Handler 'c': a selector is an option of the handlers of objects (not of children handlers)");
    }

    @Test
    void fieldHandlersNeedAFieldAndABlankFieldIsNone() {
        assertThatThrownBy(() -> Specs.spec(HandlerKind.FIELD, List.of("kopfexamples"), new Option.Id("f"), new Option.Field(" ")).validate())
                .hasMessage("Handler for kopfexamples 'f': field handlers need a field, e.g. spec.size");
    }

    @Test
    void indexingFunctionsAreNeverRetriedSoTakeNoTimeoutOrRetriesAndTheirIdIsUnique() {
        HandlerRegistry registry = new HandlerRegistry();
        assertThatThrownBy(() -> Specs.spec(HandlerKind.INDEX, List.of("pods"), new Option.Id("i"), new Option.Retries(3))
                .register(context -> null, registry))
                .hasMessage("Handler for pods 'i': indexing functions take no timeout or retries (they are never retried)");
        Specs.spec(HandlerKind.INDEX, List.of("pods"), new Option.Id("i")).register(context -> null, registry);
        assertThatThrownBy(() -> Specs.spec(HandlerKind.INDEX, List.of("configmaps"), new Option.Id("i"))
                .register(context -> null, registry)).hasMessageContaining("the id 'i' is already used");
    }

    @Test
    void valueFiltersNeedAField() {
        assertThatThrownBy(() -> create(new Option.Id("c"), new Option.Current(new Condition.Present())).validate())
                .hasMessage("Handler for kopfexamples 'c': the field's value filters (value, old and new) need a field");
    }

    @Test
    void theValueInAnyStateExcludesTheOldAndNewValues() {
        assertThatThrownBy(() -> create(new Option.Id("c"), new Option.Field("spec.size"), new Option.Value(new Condition.Exact("3")), new Option.Old(new Condition.Exact("2"))).validate())
                .hasMessage("Handler for kopfexamples 'c': the field's value filter excludes its old and new value"
                        + " filters; use either the value in any state, or the old and new values");
    }

    @Test
    void labelAndAnnotationFiltersNeedAKeyAndTheMessageShowsTheFilterAsWritten() {
        String use = "'; use \"key=value\", \"key\" (present) or \"!key\" (absent)";
        assertThatThrownBy(() -> create(new Option.Id("c"), new Option.Label("", new Condition.Exact("web"))))
                .hasMessage("Handler for kopfexamples 'c': invalid label or annotation filter '=web" + use);
        assertThatThrownBy(() -> create(new Option.Id("c"), new Option.Annotation("", new Condition.Absent())))
                .hasMessage("Handler for kopfexamples 'c': invalid label or annotation filter '!" + use);
        assertThatThrownBy(() -> create(new Option.Id("c"), new Option.Label(" ", new Condition.Matching(v -> true))))
                .hasMessage("Handler for kopfexamples 'c': invalid label or annotation filter '  (a predicate)" + use);
    }

    @Test
    void labelsAndAnnotationsAreParsedFromTheirWrittenForm() {
        assertThat(HandlerSpec.parseKey("app=web")).isEqualTo(Map.entry("app", new Condition.Exact("web")));
        assertThat(HandlerSpec.parseKey("tier")).isEqualTo(Map.entry("tier", new Condition.Present()));
        assertThat(HandlerSpec.parseKey("!legacy")).isEqualTo(Map.entry("legacy", new Condition.Absent()));
        assertThat(HandlerSpec.parseKey("empty=")).isEqualTo(Map.entry("empty", new Condition.Exact("")));
        Filters filters = registered(create(new Option.Id("c"), new Option.Label("app", new Condition.Exact("web")), new Option.Label("legacy", new Condition.Absent()), new Option.Annotation("owner", new Condition.Present()))).filters();
        assertThat(filters.labels()).containsExactly(Map.entry("app", new Condition.Exact("web")),
                Map.entry("legacy", new Condition.Absent()));
        assertThat(filters.annotations()).containsExactly(Map.entry("owner", new Condition.Present()));
    }

    @Test
    void timeoutRetriesAndBackoffHaveTheirRanges() {
        Option id = new Option.Id("c");
        assertThatThrownBy(() -> create(id, new Option.Timeout(Duration.ZERO)))
                .hasMessage("Handler for kopfexamples 'c': timeout must be positive, got PT0S");
        assertThatThrownBy(() -> create(id, new Option.Retries(0)))
                .hasMessage("Handler for kopfexamples 'c': retries must be at least 1, got 0");
        assertThatThrownBy(() -> create(id, new Option.Backoff(Duration.ofSeconds(-1))))
                .hasMessage("Handler for kopfexamples 'c': backoff must not be negative, got PT-1S");
        ChangingHandler handler = registered(create(id, new Option.Timeout(Duration.ofSeconds(5)), new Option.Retries(1),
                new Option.Backoff(Duration.ZERO)));
        assertThat(handler.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(handler.retries()).isEqualTo(1);
        assertThat(handler.backoff()).isEqualTo(Duration.ZERO);
    }

    @Test
    void theResourceMustBeAValidSelector() {
        assertThatThrownBy(() -> Specs.spec(HandlerKind.CREATE, List.of(), new Option.Id("c")).validate())
                .hasMessage("Handler 'c': a resource is given by 1 to 3 strings (e.g. \"kopfexamples\" or \"kopf.dev\","
                        + " \"v1\", \"kopfexamples\"), got 0");
    }

    @Test
    void messagesNameTheHandlerAsItsFrontEndDeclaredIt() throws NoSuchMethodException {
        assertThatThrownBy(() -> annotated(HandlerKind.CREATE, new Option.Retries(0))).hasMessage("Handler Declared.resize(int): retries must be at least 1, got 0");
        assertThatThrownBy(() -> Specs.spec(HandlerKind.SUBHANDLER, List.of(), new Option.Id("s"), new Option.Retries(0)))
                .hasMessage("Sub-handler 's': retries must be at least 1, got 0");
        assertThatThrownBy(() -> Specs.spec(HandlerKind.LOGIN, List.of(), new Option.Id("vault"), new Option.Retries(0)))
                .hasMessage("Activity 'vault': retries must be at least 1, got 0");
        assertThatThrownBy(() -> Specs.spec(HandlerKind.STARTUP, List.of(), new Option.Id("")))
                .hasMessageStartingWith("Activity (startup): handlers need an id");
    }

    /** A class with a handler method for the annotated specifications (the annotations themselves are not needed). */
    static class Declared {
        public void resize(int retry) {
        }
    }

    @Test
    void idsAreTheMethodNameOrTheIdWithKopfsFieldSuffix() throws NoSuchMethodException {
        HandlerSpec annotated = annotated(HandlerKind.UPDATE, new Option.Field(" spec.size "));
        ChangingHandler byMethod = registered(annotated);
        assertThat(byMethod.id()).isEqualTo("resize/spec.size");
        assertThat(byMethod.field()).containsExactly("spec", "size");
        assertThat(byMethod.origin()).isEqualTo("Declared.resize(int)");
        assertThat(registered(create(new Option.Id("c"))).id()).isEqualTo("c");
        assertThat(registered(create(new Option.Id("c"))).origin()).isEqualTo("'c' (create kopfexamples)");
    }

    @Test
    void kindsBecomeKopfsReasonsResumesAndFinalizers() {
        ChangingHandler delete = registered(Specs.spec(HandlerKind.DELETE, List.of("kopfexamples"), new Option.Id("d")));
        assertThat(delete.reason()).isEqualTo(Reason.DELETE);
        assertThat(delete.requiresFinalizer()).isTrue();
        assertThat(registered(Specs.spec(HandlerKind.DELETE, List.of("kopfexamples"), new Option.Id("d"), new Option.NotBlocking()))
                .requiresFinalizer()).isFalse();
        ChangingHandler resume = registered(Specs.spec(HandlerKind.RESUME, List.of("kopfexamples"), new Option.Id("r"), new Option.AlsoDeleted()));
        assertThat(resume.reason()).isNull();
        assertThat(resume.initial()).isTrue();
        assertThat(resume.deleted()).isTrue();
    }

    @Test
    void eventHandlersBecomeWatchingHandlers() {
        HandlerRegistry registry = new HandlerRegistry();
        Specs.spec(HandlerKind.EVENT, List.of("kopfexamples"), new Option.Id("e"), new Option.Param("p")).register(NOTHING, registry);
        assertThat(registry.changingHandlers(KOPFEXAMPLES)).isEmpty();
        assertThat(registry.hasWatchingHandlers(KOPFEXAMPLES)).isTrue();
    }

    @Test
    void activitiesKeepTheirOptionsAndKopfsKind() {
        ActivityHandler login = Specs.spec(HandlerKind.LOGIN, List.of(), new Option.Id("vault"), new Option.Errors(ErrorsMode.PERMANENT), new Option.Param("secret")).activity(context -> null);
        assertThat(login.kind()).isEqualTo(ActivityHandler.AUTHENTICATION);
        assertThat(login.id()).isEqualTo("vault");
        assertThat(login.errors()).isEqualTo(ErrorsMode.PERMANENT);
        assertThat(login.param()).isEqualTo("secret");
        assertThat(login.origin()).isEqualTo("'vault' (authentication)");
    }

    @Test
    void subHandlersRunUnderTheirParentsIdCauseAndResource() {
        ChangingHandler parent = registered(Specs.spec(HandlerKind.UPDATE, List.of("kopfexamples"), new Option.Id("update")));
        ChangingHandler child = Specs.spec(HandlerKind.SUBHANDLER, List.of(), new Option.Id("resize"), new Option.Field("spec.size"))
                .under(parent, NOTHING);
        assertThat(child.id()).isEqualTo("update/resize/spec.size");
        assertThat(child.reason()).isEqualTo(Reason.UPDATE);
        assertThat(child.selector()).isEqualTo(parent.selector());
        assertThat(child.requiresFinalizer()).isFalse();
        assertThat(child.origin()).isEqualTo("'update' (update kopfexamples) sub-handler 'resize'");
    }

    @Test
    void eventHandlersTakeNoRetryOptions() {
        HandlerSpec spec = Specs.spec(HandlerKind.EVENT, List.of("kopfexamples"), new Option.Id("spy"), new Option.Retries(3));
        assertThatThrownBy(() -> spec.register(NOTHING, new HandlerRegistry())).isInstanceOf(InvalidHandlerException.class)
                .hasMessageContaining("event handlers take no errors, timeout, retries or backoff");
    }

    @Test
    void childrenHandlersNeedTheKindsOfTheirChildrenAndKeepTheirOptions() {
        assertThatThrownBy(() -> Specs.spec(HandlerKind.CHILDREN, List.of("kopfexamples"), new Option.Id("c")).register(NOTHING,
                new HandlerRegistry()))
                .hasMessageContaining("children handlers need the kinds of their children, which kopf4j watches");
        assertThatThrownBy(() -> Specs.spec(HandlerKind.TIMER, List.of("kopfexamples"), new Option.Id("t"),
                new Option.ReadyCondition("Ready")))
                .hasMessageContaining("readyCondition is an option of children handlers only");
        assertThatThrownBy(() -> Specs.spec(HandlerKind.CHILDREN, List.of("kopfexamples"), new Option.Id("c"),
                new Option.ChildResources(List.of("deployments.apps", " "))).register(NOTHING, new HandlerRegistry()))
                .hasMessageContaining("children's resource");
        assertThatThrownBy(() -> Specs.spec(HandlerKind.CHILDREN, List.of("kopfexamples"), new Option.Id("c"),
                new Option.ChildResources(List.of("deployments.apps")), new Option.ReadyCondition(" ")))
                .hasMessageContaining("readyCondition must be a condition type");

        HandlerRegistry registry = new HandlerRegistry();
        Specs.spec(HandlerKind.CHILDREN, List.of("kopfexamples"), new Option.Id("c"),
                new Option.ChildResources(List.of("deployments.apps")), new Option.ReadyCondition(" Ready ")).register(NOTHING, registry);
        ChildrenHandler children = registry.childrenHandlers().get(0);
        assertThat(children.options().get(Option.ChildResources.class)).map(Option.ChildResources::selectors)
                .contains(List.of("deployments.apps"));
        assertThat(children.options().get(Option.ReadyCondition.class)).map(Option.ReadyCondition::type).contains("Ready");
        assertThat(children.title()).isEqualTo("Handler 'c'");
    }
}
