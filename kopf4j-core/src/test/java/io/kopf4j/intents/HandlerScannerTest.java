package io.kopf4j.intents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.Body;
import io.kopf4j.HandlerContext;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.Patch;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import io.kopf4j.Spec;
import io.kopf4j.structs.Diffs;
import io.kopf4j.structs.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class HandlerScannerTest {
    public static class Valid {
        @On.Create("kopfexamples")
        public Map<String, Object> create(Spec spec, String name, Logger logger, Map<String, String> labels) {
            return Map.of("name", name, "size", spec.get("size"), "labels", labels);
        }

        @On.Create(value = {"kopf.dev", "v1", "kopfexamples"}, id = "custom")
        public static String statically(HandlerContext context) {
            return context.reason().toString();
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

    public static class BadSelector {
        @On.Create({})
        public void create() {
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

    @Test
    void bindsParametersByTypeAndName() throws Exception {
        List<ChangingHandler> handlers = HandlerScanner.scan(Valid.class);
        assertThat(handlers).extracting(ChangingHandler::id).containsExactly("create", "custom");
        assertThat(handlers.get(0).origin()).isEqualTo("Valid.create(Spec, String, Logger, Map)");

        Map<String, Object> raw = Json.parseMap("{\"metadata\":{\"name\":\"n1\",\"labels\":{\"l\":\"v\"}},\"spec\":{\"size\":3}}");
        HandlerContext context = new HandlerContext() {
            public Body body() { return new Body(raw); }
            public Patch patch() { return new Patch(); }
            public Logger logger() { return LoggerFactory.getLogger("test"); }
            public Reason reason() { return Reason.CREATE; }
            public Resource resource() { return null; }
            public io.kopf4j.Diff diff() { return Diffs.between(null, raw); }
            public Map<String, Object> old() { return null; }
            public Map<String, Object> current() { return raw; }
        };
        assertThat(handlers.get(0).function().call(context)).isEqualTo(Map.of("name", "n1", "size", 3, "labels", Map.of("l", "v")));
        assertThat(handlers.get(1).function().call(context)).isEqualTo("create");
    }

    @Test
    void unknownParameterFailsNamingTheMethodAndParameter() {
        assertThatThrownBy(() -> HandlerScanner.scan(UnknownParameter.class))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessageStartingWith("Handler UnknownParameter.create(String): unsupported parameter 'colour' of type String");
    }

    @Test
    void mismatchedTypeFailsWithTheExpectedType() {
        assertThatThrownBy(() -> HandlerScanner.scan(WrongType.class))
                .hasMessage("Handler WrongType.create(int): parameter 'name' is declared as int but kopf4j passes a String;"
                        + " declare it as String");
    }

    @Test
    void missingResourceFails() {
        assertThatThrownBy(() -> HandlerScanner.scan(BadSelector.class))
                .hasMessageStartingWith("Handler BadSelector.create(): a resource is given by 1 to 3 strings");
    }

    @Test
    void twoHandlersWithOneIdFail() {
        assertThatThrownBy(() -> Operator.builder().handlers(DuplicateIds.class))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessage("Handler DuplicateIds.two(): the id 'same' is already used by DuplicateIds.one();"
                        + " give one of them another id (id = \"...\")");
    }

    @Test
    void anOperatorNeedsHandlers() {
        assertThatThrownBy(() -> Operator.builder().build()).hasMessageContaining("no handlers");
    }
}
