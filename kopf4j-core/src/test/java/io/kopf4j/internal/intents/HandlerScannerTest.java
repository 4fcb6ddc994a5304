package io.kopf4j.internal.intents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.kopf4j.Body;
import io.kopf4j.Condition;
import io.kopf4j.Diff;
import io.kopf4j.ErrorsMode;
import io.kopf4j.Filter;
import io.kopf4j.Handler;
import io.kopf4j.HandlerContext;
import io.kopf4j.HandlerDescription;
import io.kopf4j.Index;
import io.kopf4j.Indexer;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.Memo;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.Patch;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import io.kopf4j.Spec;
import io.kopf4j.Timer;
import io.kopf4j.internal.structs.Json;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class HandlerScannerTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of("kex"), List.of(), List.of("status"), true, true, List.of("list", "watch", "patch"));

    public static class Valid {
        @On.Create("kopfexamples")
        public Map<String, Object> create(Spec spec, String name, Logger logger, Map<String, String> labels) {
            return Map.of("name", name, "size", spec.get("size"), "labels", labels);
        }

        @On.Create(value = {"kopf.dev", "v1", "kopfexamples"}, id = "custom", param = "p")
        public static String statically(HandlerContext context, Object param) {
            return context.reason() + " " + param;
        }
    }

    public static class UnknownParameter {
        @On.Create("kopfexamples")
        public void create(String colour) {
        }
    }

    public static class WrongType {
        @On.Create("kopfexamples")
        public void create(int name) {
        }
    }

    public static class DuplicateIds {
        @On.Create(value = "kopfexamples", id = "same")
        public void one() {
        }

        @On.Create(value = "kopfexamples", id = "same")
        public void two() {
        }
    }

    /** Kopf's callable selector as a class: the example kinds of any group. */
    public static class Examples implements io.kopf4j.ResourceMatcher {
        @Override
        public boolean matches(io.kopf4j.Resource resource) {
            return resource.plural().endsWith("examples");
        }
    }

    public static class SelectedByPredicate {
        @On.Event(selector = Examples.class)
        public void seen() {
        }
    }

    public static class NamedAndSelected {
        @On.Event(value = "pods", selector = Examples.class)
        public void seen() {
        }
    }

    @Test
    void aSelectorClassStandsForTheResourceAndCannotComeWithANameAsInKopf() {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(SelectedByPredicate.class, registry);
        io.kopf4j.Resource examples = new io.kopf4j.Resource("other.dev", "v2", "fooexamples", "FooExample", "fooexample",
                List.of(), List.of(), List.of(), true, false, List.of("list", "watch"));
        assertThat(registry.watchingHandlers(examples)).singleElement()
                .satisfies(handler -> assertThat(handler.selector().matcher()).isInstanceOf(Examples.class));
        assertThat(Handler.event().id("seen").selector(new Examples()).handle(context -> null).description().options())
                .hasSize(2);

        assertThatThrownBy(() -> HandlerScanner.scan(NamedAndSelected.class, new HandlerRegistry()))
                .hasMessage("Handler NamedAndSelected.seen(): The callable filter cannot have any other selectors.");
    }

    @Test
    void bindsParametersByTypeAndName() throws Exception {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(Valid.class, registry);
        List<ChangingHandler> handlers = registry.changingHandlers(KOPFEXAMPLES);
        assertThat(handlers).extracting(ChangingHandler::id).containsExactly("create", "custom");
        assertThat(handlers.get(0).origin()).isEqualTo("Valid.create(Spec, String, Logger, Map)");

        Map<String, Object> raw = Json.parseMap("{\"metadata\":{\"name\":\"n1\",\"labels\":{\"l\":\"v\"}},\"spec\":{\"size\":3}}");
        HandlerContext context = new HandlerContext() {
            public Body body() { return new Body(raw); }
            public Patch patch() { return new Patch(); }
            public Logger logger() { return LoggerFactory.getLogger("test"); }
            public Reason reason() { return Reason.CREATE; }
            public Resource resource() { return KOPFEXAMPLES; }
            public Memo memo() { return new Memo(); }
            public Object param() { return "p"; }
            public io.kopf4j.Diff diff() { return Diff.between(null, raw); }
            public Object old() { return null; }
            public Object current() { return raw; }
            public int retry() { return 0; }
            public java.time.Instant started() { return java.time.Instant.now(); }
            public String type() { return null; }
            public Map<String, Object> event() { return null; }
        };
        assertThat(handlers.get(0).function().call(context)).isEqualTo(Map.of("name", "n1", "size", 3, "labels", Map.of("l", "v")));
        assertThat(handlers.get(1).function().call(context)).isEqualTo("create p");
        assertThat(handlers.get(1).param()).isEqualTo("p");
    }

    @Test
    void unknownParameterFailsNamingTheMethodAndParameter() {
        assertThatThrownBy(() -> HandlerScanner.scan(UnknownParameter.class, new HandlerRegistry()))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessageStartingWith("Handler UnknownParameter.create(String): unsupported parameter 'colour' of type String");
    }

    public static class StopFlagOnCreate {
        @On.Create("kopfexamples")
        public void create(io.kopf4j.DaemonStopped stopped) {
        }
    }

    public static class DaemonAndTimer {
        @io.kopf4j.Daemon(value = "kopfexamples", cancellationBackoff = 1.5, cancellationTimeout = 2, initialDelay = 0.5)
        public void watch(io.kopf4j.DaemonStopped stopped) {
        }

        @io.kopf4j.Timer(value = "kopfexamples", interval = 10, sharp = true, idle = 60)
        public void tick() {
        }
    }

    /** A custom memo class, as Kopf's docs/memos.rst shows: one memo shared by the whole operator. */
    public static class Templates extends Memo {
        final String createTemplate;

        public Templates(String createTemplate) {
            this.createTemplate = createTemplate;
        }

        @Override
        public Memo copyForObject() {
            return this;
        }
    }

    public static class WithCustomMemo {
        @On.Create("kopfexamples")
        public String create(Templates memo) {
            return memo.createTemplate.formatted("x");
        }
    }

    @Test
    void aCustomMemoClassIsBoundByTheNameMemo() throws Exception {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(WithCustomMemo.class, registry);
        Templates memo = new Templates("created %s");
        HandlerContext context = (HandlerContext) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HandlerContext.class},
                (proxy, method, args) -> method.getName().equals("memo") ? memo.copyForObject() : null);
        assertThat(registry.changingHandlers(KOPFEXAMPLES).get(0).function().call(context)).isEqualTo("created x");
    }

    @Test
    void onlyDaemonsAndTimersMayAskForTheStopFlag() {
        assertThatThrownBy(() -> HandlerScanner.scan(StopFlagOnCreate.class, new HandlerRegistry()))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessageStartingWith("Handler StopFlagOnCreate.create(DaemonStopped): only daemons and timers get a DaemonStopped parameter");
    }

    @Test
    void daemonsAndTimersAreRegisteredWithTheirOptionsInSeconds() {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(DaemonAndTimer.class, registry);
        assertThat(registry.size()).isEqualTo(2);
        assertThatThrownBy(() -> HandlerScanner.scan(ZeroInterval.class, new HandlerRegistry()))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessage("Handler ZeroInterval.tick(): interval must be positive, got PT0S");
    }

    public static class ZeroInterval {
        @io.kopf4j.Timer(value = "kopfexamples", interval = 0)
        public void tick() {
        }
    }

    @Test
    void mismatchedTypeFailsWithTheExpectedType() {
        assertThatThrownBy(() -> HandlerScanner.scan(WrongType.class, new HandlerRegistry()))
                .hasMessage("Handler WrongType.create(int): parameter 'name' is declared as int but kopf4j passes a String;"
                        + " declare it as String");
    }

    @Test
    void twoHandlersWithOneIdFail() {
        assertThatThrownBy(() -> Operator.builder().handlers(DuplicateIds.class))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessage("Handler DuplicateIds.two(): the id 'same' is already used by DuplicateIds.one();"
                        + " give one of them another id (id = \"...\")");
    }

    public static class Stacked {
        @On.Create("kopfexamples")
        @On.Update("kopfexamples")
        @On.Field(value = "kopfexamples", field = "spec.size")
        @On.Delete(value = "kopfexamples", optional = true)
        @On.Resume("kopfexamples")
        public void all(int retry) {
        }
    }

    @Test
    void stackedAnnotationsMakeOneHandlerEachWithKopfsIds() {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(Stacked.class, registry);
        assertThat(registry.changingHandlers(KOPFEXAMPLES)).extracting(ChangingHandler::id, ChangingHandler::reason)
                .containsExactlyInAnyOrder(tuple("all", Reason.CREATE), tuple("all", Reason.UPDATE),
                        tuple("all/spec.size", null), tuple("all", Reason.DELETE), tuple("all", null));
        Map<String, Object> raw = Map.of("metadata", Map.of("name", "x"));
        ChangingCause cause = new ChangingCause(KOPFEXAMPLES, raw, new Body(raw), new Patch(), LoggerFactory.getLogger("test"), new Memo(),
                Reason.CREATE, false, false, Diff.between(null, null), null, Map.of());
        assertThat(registry.requiresFinalizer(cause)).as("the delete handler is optional").isFalse();
    }

    public static class Translated {
        @On.Update(value = "kopfexamples", field = "spec.size", oldValue = Filter.ABSENT, newValue = Filter.PRESENT,
                timeout = 0.25, backoff = -5)
        public void update() {
        }

        @On.Probe
        public String probe() {
            return "ok";
        }
    }

    @Test
    void annotationTextsAndSecondsBecomeTheHandlersOptions() {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(Translated.class, registry);
        ChangingHandler update = registry.changingHandlers(KOPFEXAMPLES).getFirst();
        assertThat(update.filters().old()).isEqualTo(new Condition.Absent());
        assertThat(update.filters().current()).isEqualTo(new Condition.Present());
        assertThat(update.timeout()).isEqualTo(java.time.Duration.ofMillis(250));
        assertThat(update.backoff()).as("negative: the operator's default").isNull();
        assertThat(update.retries()).isNull();
        assertThat(update.param()).isNull();
        assertThat(registry.activities(ActivityHandler.PROBE)).extracting(ActivityHandler::id, ActivityHandler::origin)
                .containsExactly(tuple("probe", "Translated.probe()"));
    }

    @Test
    void anOperatorNeedsHandlers() {
        assertThatThrownBy(() -> Operator.builder().build()).hasMessageContaining("no handlers");
    }

    public static class Indexes {
        @Indexer(value = "kopfexamples", labels = "app")
        public Object byApp(Map<String, String> labels, String name) {
            return Map.of(labels.get("app"), name);
        }

        @On.Create("kopfexamples")
        public int create(Index<String, String> byApp) {
            return byApp.size();
        }
    }

    @Test
    void indexingFunctionsAreRegisteredByIdAndIndexParametersAreTheIndexesOfTheirNames() throws Exception {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(Indexes.class, registry);
        assertThat(registry.indexingHandlers()).extracting(IndexingHandler::id).containsExactly("byApp");
        assertThat(registry.hasIndexingHandlers(KOPFEXAMPLES)).isTrue();

        Index<?, ?> sevenKeys = (Index<?, ?>) java.lang.reflect.Proxy.newProxyInstance(Index.class.getClassLoader(),
                new Class<?>[] {Index.class}, (proxy, method, args) -> 7);
        List<String> asked = new java.util.ArrayList<>();
        // Only the index is asked for: any other call fails the test.
        HandlerContext context = (HandlerContext) java.lang.reflect.Proxy.newProxyInstance(
                HandlerContext.class.getClassLoader(), new Class<?>[] {HandlerContext.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("index")) {
                        throw new AssertionError("unexpected call: " + method);
                    }
                    asked.add((String) args[0]);
                    return sevenKeys;
                });
        Object result = registry.changingHandlers(KOPFEXAMPLES).get(0).function().call(context);
        assertThat(result).isEqualTo(7);
        assertThat(asked).containsExactly("byApp");
    }

    public static class SameAsBuilt {
        @Timer(value = "kopfexamples", id = "tick", interval = 5, sharp = true, labels = {"app=web", "!legacy"},
                errors = ErrorsMode.PERMANENT, retries = 3, param = "p")
        public void tick() {
        }
    }

    /** One path from a declaration to a handler: an annotation describes its handler as the builders do. */
    @Test
    void anAnnotationDescribesItsHandlerAsTheBuildersDo() throws NoSuchMethodException {
        HandlerDescription annotated = HandlerScanner.describe(SameAsBuilt.class.getMethod("tick").getAnnotation(Timer.class));
        HandlerDescription built = Handler.timer("kopfexamples").id("tick").param("p").errors(ErrorsMode.PERMANENT)
                .retries(3).label("app", "web").labelAbsent("legacy").interval(Duration.ofSeconds(5)).sharp()
                .handle(context -> null).description();
        assertThat(annotated).isEqualTo(built);
    }

    /** Kopf's {@code get_delay}: the object's {@code spec.delay} in seconds, or none. */
    public static class DelayFromSpec implements io.kopf4j.DelayFn {
        @Override
        public Duration apply(HandlerContext context) {
            return context.spec().get("delay") instanceof Number seconds ? Duration.ofSeconds(seconds.longValue()) : null;
        }
    }

    public static class ComputedDelays {
        @io.kopf4j.Daemon(value = "kopfexamples", initialDelayFn = DelayFromSpec.class)
        public void watch() {
        }

        @io.kopf4j.Timer(value = "kopfexamples", interval = 10, initialDelayFn = DelayFromSpec.class)
        public void tick() {
        }
    }

    @Test
    void anInitialDelayFnIsMadeWithItsConstructorAndAskedWithEachObjectsContext() {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(ComputedDelays.class, registry);
        List<SpawningHandler> handlers = registry.spawningHandlers(KOPFEXAMPLES);
        assertThat(handlers).extracting(SpawningHandler::id).containsExactlyInAnyOrder("watch", "tick");
        for (SpawningHandler handler : handlers) {
            java.util.function.Function<HandlerContext, Duration> delay =
                    handler.options().get(HandlerDescription.Option.ComputedInitialDelay.class).orElseThrow().delay();
            assertThat(delay).isInstanceOf(DelayFromSpec.class);
            assertThat(delay.apply(contextOf(Map.of("spec", Map.of("delay", 7))))).isEqualTo(Duration.ofSeconds(7));
            assertThat(delay.apply(contextOf(Map.of("spec", Map.of())))).isNull();
        }
    }

    public static class DefaultDelays {
        @io.kopf4j.Daemon("kopfexamples")
        public void watch() {
        }
    }

    @Test
    void withoutAnInitialDelayThereIsNone() {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(DefaultDelays.class, registry);
        assertThat(registry.spawningHandlers(KOPFEXAMPLES).getFirst().options()
                .get(HandlerDescription.Option.ComputedInitialDelay.class)).isEmpty();
    }

    /** A context of this body: its default methods (spec, name, ...) as the interface has them. */
    private static HandlerContext contextOf(Map<String, Object> raw) {
        return (HandlerContext) java.lang.reflect.Proxy.newProxyInstance(HandlerContext.class.getClassLoader(),
                new Class<?>[] {HandlerContext.class}, (proxy, method, args) -> {
                    if (method.getName().equals("body")) {
                        return new Body(raw);
                    }
                    if (method.isDefault()) {
                        return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
                    }
                    throw new AssertionError("unexpected call: " + method);
                });
    }
}
