package io.kopf4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.internal.intents.ChangingHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerScanner;
import io.kopf4j.internal.intents.HandlerSpec;
import io.kopf4j.internal.intents.Specs;
import io.kopf4j.internal.intents.WebhookHandler;
import io.kopf4j.internal.intents.WebhookType;
import java.time.Duration;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * The same declaration through both front-ends, annotations and builders: the same rule text after
 * the handler's name, and the same handler. The rules themselves are in {@code HandlerSpecTest}.
 */
class HandlerFrontEndsTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of(), true, true, List.of("list", "watch", "patch"));

    /** The rule an annotated class breaks: the message after {@code Handler Class.handler(): }. */
    private static String ruleViaAnnotation(Class<?> type) {
        Throwable error = catchThrowable(() -> HandlerScanner.scan(type, new HandlerRegistry()));
        String subject = "Handler " + type.getSimpleName() + ".handler(): ";
        assertThat(error).isInstanceOf(InvalidHandlerException.class).hasMessageStartingWith(subject);
        return error.getMessage().substring(subject.length());
    }

    /** The rule a builder breaks: the message after the builder's name of the handler. */
    private static String ruleViaBuilder(String subject, ThrowingCallable declaration) {
        Throwable error = catchThrowable(declaration);
        assertThat(error).isInstanceOf(InvalidHandlerException.class).hasMessageStartingWith(subject + ": ");
        return error.getMessage().substring(subject.length() + 2);
    }

    /** Registers the handler as users do: its options are checked then. */
    private static void registered(Handler handler) {
        Operator.builder().handler(handler);
    }

    private static void registered(Activity activity) {
        Operator.builder().activity(activity);
    }

    public static class BlankId {
        @On.Create(value = "kopfexamples", id = " ")
        public void handler() {
        }
    }

    @Test
    void blankIds() {
        assertThat(ruleViaAnnotation(BlankId.class))
                .isEqualTo(ruleViaBuilder("Handler for kopfexamples", () -> registered(Handler.create("kopfexamples").id(" ").handle(context -> null))))
                .startsWith("handlers need an id");
    }

    public static class FieldWithoutPath {
        @On.Field(value = "kopfexamples", field = " ")
        public void handler() {
        }
    }

    @Test
    void fieldHandlersWithoutAField() {
        assertThat(ruleViaAnnotation(FieldWithoutPath.class))
                .isEqualTo(ruleViaBuilder("Handler for kopfexamples 'h'",
                        () -> registered(Handler.field("kopfexamples").id("h").field(" ").handle(context -> null))))
                .startsWith("field handlers need a field");
    }

    public static class ValueWithoutField {
        @On.Create(value = "kopfexamples", fieldValue = "3")
        public void handler() {
        }
    }

    @Test
    void valueFiltersWithoutAField() {
        assertThat(ruleViaAnnotation(ValueWithoutField.class))
                .isEqualTo(ruleViaBuilder("Handler for kopfexamples 'h'",
                        () -> registered(Handler.create("kopfexamples").id("h").value(v -> true).handle(context -> null))))
                .startsWith("the field's value filters");
    }

    public static class ValueWithOld {
        @On.Update(value = "kopfexamples", field = "spec.size", fieldValue = "3", oldValue = "2")
        public void handler() {
        }
    }

    @Test
    void theValueWithTheOldValue() {
        assertThat(ruleViaAnnotation(ValueWithOld.class))
                .isEqualTo(ruleViaBuilder("Handler for kopfexamples 'h'", () -> registered(Handler.update("kopfexamples").id("h")
                        .field("spec.size").value(v -> true).old(v -> true).handle(context -> null))))
                .startsWith("the field's value filter excludes");
    }

    public static class LabelWithoutKey {
        @On.Create(value = "kopfexamples", labels = "=web")
        public void handler() {
        }
    }

    @Test
    void labelsWithoutAKey() {
        assertThat(ruleViaAnnotation(LabelWithoutKey.class))
                .isEqualTo(ruleViaBuilder("Handler for kopfexamples 'h'",
                        () -> registered(Handler.create("kopfexamples").id("h").label("", "web").handle(context -> null))))
                .startsWith("invalid label or annotation filter '=web'");
    }

    public static class ZeroTimeout {
        @On.Create(value = "kopfexamples", timeout = 0)
        public void handler() {
        }
    }

    @Test
    void zeroTimeouts() {
        assertThat(ruleViaAnnotation(ZeroTimeout.class))
                .isEqualTo(ruleViaBuilder("Handler for kopfexamples 'h'",
                        () -> registered(Handler.create("kopfexamples").id("h").timeout(Duration.ZERO).handle(context -> null))))
                .isEqualTo("timeout must be positive, got PT0S");
    }

    public static class ZeroRetries {
        @On.Startup(retries = 0)
        public void handler() {
        }
    }

    @Test
    void zeroRetriesOfActivities() {
        assertThat(ruleViaAnnotation(ZeroRetries.class))
                .isEqualTo(ruleViaBuilder("Activity 'h'", () -> registered(Activity.startup("h").retries(0).handle(context -> null))))
                .isEqualTo("retries must be at least 1, got 0");
    }

    public static class NoResource {
        @On.Create({})
        public void handler() {
        }
    }

    @Test
    void missingResources() {
        assertThat(ruleViaAnnotation(NoResource.class))
                .isEqualTo(ruleViaBuilder("Handler 'h'", () -> registered(Handler.create().id("h").handle(context -> null))))
                .startsWith("a resource is given by 1 to 3 strings");
    }

    public static class Resize {
        @On.Update(value = "kopfexamples", id = "resize", field = "spec.size", labels = {"app=web", "!legacy"},
                annotations = "owner", newValue = "<present>", timeout = 1.5, retries = 3, backoff = 2, param = "p")
        public void handler() {
        }
    }

    @Test
    void bothFrontEndsBuildTheSameHandler() {
        HandlerRegistry viaAnnotation = new HandlerRegistry();
        HandlerScanner.scan(Resize.class, viaAnnotation);
        HandlerRegistry viaBuilder = new HandlerRegistry();
        HandlerSpec.described(Handler.update("kopfexamples").id("resize").field("spec.size").label("app", "web").labelAbsent("legacy")
                .annotationPresent("owner").current(value -> value != null).timeout(Duration.ofMillis(1500)).retries(3)
                .backoff(Duration.ofSeconds(2)).param("p").handle(context -> null).description()).register(context -> null, viaBuilder);
        ChangingHandler annotated = viaAnnotation.changingHandlers(KOPFEXAMPLES).getFirst();
        ChangingHandler built = viaBuilder.changingHandlers(KOPFEXAMPLES).getFirst();
        assertThat(annotated).usingRecursiveComparison()
                .ignoringFields("function", "origin", "filters.current", "errors").isEqualTo(built);
        assertThat(annotated.id()).isEqualTo("resize/spec.size");
        assertThat(annotated.filters().current().test(null)).isEqualTo(built.filters().current().test(null)).isFalse();
        assertThat(annotated.filters().current().test(3)).isEqualTo(built.filters().current().test(3)).isTrue();
    }

    public static class Admission {
        @On.Validate(value = "kopfexamples", id = "check", operations = {"CREATE", "UPDATE"}, subresource = "status",
                persistent = true, sideEffects = true, ignoreFailures = true, labels = "app=web")
        public void handler() {
        }
    }

    @Test
    void admissionHandlersAreTheSameThroughBothFrontEnds() {
        HandlerRegistry annotated = new HandlerRegistry();
        HandlerScanner.scan(Admission.class, annotated);
        HandlerRegistry built = new HandlerRegistry();
        HandlerSpec.described(Handler.validate("kopfexamples").id("check").operations("CREATE", "UPDATE").subresource("status").persistent()
                .sideEffects().ignoreFailures().label("app", "web").handle(context -> null).description()).register(context -> null, built);
        WebhookHandler one = annotated.webhookHandlers().get(0);
        WebhookHandler other = built.webhookHandlers().get(0);
        for (WebhookHandler handler : List.of(one, other)) {
            assertThat(handler.type()).isEqualTo(WebhookType.VALIDATING);
            assertThat(handler.operations()).containsExactly("CREATE", "UPDATE");
            assertThat(handler.subresource()).isEqualTo("status");
            assertThat(handler.options().has(Option.Persistent.class)
                    && handler.options().has(Option.SideEffects.class)
                    && handler.options().has(Option.IgnoreFailures.class)).isTrue();
            assertThat(handler.selector().matches(KOPFEXAMPLES)).isTrue();
        }
        assertThat(one.id()).isEqualTo(other.id()).isEqualTo("check");
        assertThat(one.filters().labels()).isEqualTo(other.filters().labels());
    }

    public static class UnknownOperation {
        @On.Mutate(value = "kopfexamples", operations = "PATCH")
        public void handler() {
        }
    }

    @Test
    void unknownOperations() {
        assertThat(ruleViaAnnotation(UnknownOperation.class))
                .isEqualTo(ruleViaBuilder("Handler for kopfexamples",
                        () -> registered(Handler.mutate("kopfexamples").operations("PATCH").handle(context -> null))))
                .startsWith("unknown operation 'PATCH'");
    }

    @Test
    void admissionHandlersAreNeverRetriedAndOtherHandlersHaveNoWebhookOptions() {
        assertThat(ruleViaBuilder("Handler for kopfexamples 'v'",
                () -> registered(Handler.validate("kopfexamples").id("v").retries(3).handle(context -> null))))
                .startsWith("admission handlers take no errors, timeout, retries or backoff");
        assertThat(ruleViaBuilder("Handler for kopfexamples",
                () -> Specs.spec(HandlerKind.CREATE, List.of("kopfexamples"), new Option.Persistent())))
                .isEqualTo("persistent is an option of admission handlers (validate, mutate) only");
    }

    public static class NoDelay implements DelayFn {
        @Override
        public Duration apply(HandlerContext context) {
            return null;
        }
    }

    public static class BothInitialDelays {
        @Daemon(value = "kopfexamples", initialDelay = 5, initialDelayFn = NoDelay.class)
        public void handler() {
        }
    }

    public static class BothInitialDelaysOfATimer {
        @Timer(value = "kopfexamples", interval = 60, initialDelay = 5, initialDelayFn = NoDelay.class)
        public void handler() {
        }
    }

    /** Kopf's {@code initial_delay} is a number or a callable: giving both is a mistake, found at startup. */
    @Test
    void aFixedAndAComputedInitialDelay() {
        String rule = "initialDelay (seconds) and initialDelayFn (a function) exclude each other; give the initial delay one way";
        assertThat(ruleViaAnnotation(BothInitialDelays.class))
                .isEqualTo(ruleViaBuilder("Handler for kopfexamples 'h'", () -> registered(Handler.daemon("kopfexamples").id("h")
                        .initialDelay(Duration.ofSeconds(5)).initialDelay(context -> null).handle(context -> null))))
                .isEqualTo(rule);
        assertThat(ruleViaAnnotation(BothInitialDelaysOfATimer.class))
                .isEqualTo(ruleViaBuilder("Handler for kopfexamples 'h'", () -> registered(Handler.timer("kopfexamples").id("h")
                        .initialDelay(context -> null).initialDelay(Duration.ofSeconds(5)).handle(context -> null))))
                .isEqualTo(rule);
        registered(Handler.daemon("kopfexamples").id("twice").initialDelay(context -> null)
                .initialDelay(context -> Duration.ZERO).handle(context -> null));   // one form twice: the last wins, as for other options
    }
}
