package io.kopf4j.internal.intents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.Diff;
import io.kopf4j.Filter;
import io.kopf4j.HandlerContext;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.On;
import io.kopf4j.Resource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FiltersTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of(), true, true, List.of("list", "watch", "patch"));

    @Test
    void conditionsMatchExactPresentAbsentAndJsonValues() {
        assertThat(HandlerSpec.parseCondition("web").test("web")).isTrue();
        assertThat(HandlerSpec.parseCondition("3").test(3)).isTrue();
        assertThat(HandlerSpec.parseCondition("true").test(true)).isTrue();
        assertThat(HandlerSpec.parseCondition("[1,2]").test(List.of(1, 2))).isTrue();
        assertThat(HandlerSpec.parseCondition("web").test(null)).isFalse();
        assertThat(HandlerSpec.parseCondition(Filter.PRESENT).test("")).as("empty counts as present").isTrue();
        assertThat(HandlerSpec.parseCondition(Filter.ABSENT).test(null)).isTrue();
    }

    public static class NoConstructor implements Filter {
        NoConstructor(int unused) {
        }

        public boolean test(HandlerContext context) {
            return true;
        }
    }

    public static class WhenWithoutConstructor {
        @On.Create(value = "kopfexamples", when = NoConstructor.class)
        public void create() {
        }
    }

    @Test
    void whenFiltersNeedANoArgumentConstructor() {
        assertThatThrownBy(() -> HandlerScanner.scan(WhenWithoutConstructor.class, new HandlerRegistry()))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessageStartingWith("Class io.kopf4j.internal.intents.FiltersTest$NoConstructor needs a no-argument constructor");
    }

    public static class Labelled {
        @On.Create(value = "kopfexamples", labels = {"app=web", "!legacy"})
        public void create() {
        }
    }

    @Test
    void handlersAreSelectedByTheirFilters() {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(Labelled.class, registry);
        assertThat(registry.prematches(cause(Map.of("app", "web")))).isTrue();
        assertThat(registry.prematches(cause(Map.of("app", "db")))).isFalse();
        assertThat(registry.prematches(cause(Map.of("app", "web", "legacy", "yes")))).isFalse();
    }

    private static ChangingCause cause(Map<String, Object> labels) {
        Map<String, Object> raw = Map.of("metadata", Map.of("name", "x", "labels", labels));
        return new ChangingCause(KOPFEXAMPLES, raw, new io.kopf4j.Body(raw), new io.kopf4j.Patch(),
                org.slf4j.LoggerFactory.getLogger("test"), new io.kopf4j.Memo(), io.kopf4j.Reason.CREATE, false, false,
                Diff.between(null, null), null, Map.of());
    }
}
