package io.kopf4j.internal.intents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kopf4j.Body;
import io.kopf4j.HandlerContext;
import io.kopf4j.HandlerFn;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.internal.structs.Json;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TypedParametersTest {
    public record ExampleSpec(int size, String field) {
    }

    /** A POJO status, with a setter per field. */
    public static class ExampleStatus {
        private String phase;

        public String getPhase() {
            return phase;
        }

        public void setPhase(String phase) {
            this.phase = phase;
        }
    }

    @Group("kopf.dev")
    @Version("v1")
    public static class KopfExample extends CustomResource<ExampleSpec, ExampleStatus> implements Namespaced {
    }

    public interface SpecInterface {
        int size();
    }

    public static class NoDefaultConstructor {
        public NoDefaultConstructor(int size) {
        }
    }

    public static class Handlers {
        public List<Object> recordSpec(ExampleSpec spec) {
            return List.of(spec);
        }

        public List<Object> pojoStatus(ExampleStatus status) {
            return List.of(status.getPhase());
        }

        public List<Object> pod(Pod pod) {
            return List.of(pod.getMetadata().getName(), pod.getSpec().getContainers().get(0).getImage());
        }

        public List<Object> customResource(KopfExample example, Body body) {
            return List.of(example.getMetadata().getName(), example.getSpec(), example.getStatus().getPhase(),
                    body.meta().name());
        }

        public List<Object> namedBody(ExampleStatus body) {
            return List.of(String.valueOf(body.getPhase()));
        }

        public void interfaceSpec(SpecInterface spec) {
        }

        public void noDefaultConstructor(String name, NoDefaultConstructor status) {
        }

        public void otherName(ExampleSpec configuration) {
        }
    }

    private static final Body EXAMPLE = new Body(Json.parseMap("""
            {"apiVersion":"kopf.dev/v1","kind":"KopfExample","metadata":{"name":"kex1","namespace":"ns"},
             "spec":{"size":3,"field":"value","unknown":true},"status":{"phase":"Ready"}}"""));

    private static final Body POD = new Body(Json.parseMap("""
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1"},
             "spec":{"containers":[{"name":"main","image":"nginx:1.25"}]}}"""));

    @Test
    void aRecordNamedSpecIsConvertedFromTheSpec() {
        assertThat(call("recordSpec", EXAMPLE)).containsExactly(new ExampleSpec(3, "value"));
    }

    @Test
    void aPojoNamedStatusIsConvertedFromTheStatus() {
        assertThat(call("pojoStatus", EXAMPLE)).containsExactly("Ready");
    }

    @Test
    void aFabric8ResourceIsConvertedFromTheBodyWhateverItsName() {
        assertThat(call("pod", POD)).containsExactly("p1", "nginx:1.25");
    }

    @Test
    void aCustomResourceSubclassIsConvertedFromTheBody() {
        assertThat(call("customResource", EXAMPLE)).containsExactly("kex1", new ExampleSpec(3, "value"), "Ready", "kex1");
    }

    @Test
    void aUserTypeNamedBodyIsConvertedFromTheWholeObject() {
        assertThat(call("namedBody", EXAMPLE)).as("the body has no top-level phase").containsExactly("null");
    }

    @Test
    void aSpecThatDoesNotFitFailsTheCallNamingTheHandlerParameterAndField() {
        Body wrong = new Body(Map.of("spec", Map.of("size", "three")));
        assertThatThrownBy(() -> call("recordSpec", wrong)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Handler Handlers.recordSpec(ExampleSpec): parameter 'spec': cannot convert spec"
                        + " to ExampleSpec at spec.size: Cannot deserialize value of type `int` from String \"three\"");
    }

    @Test
    void anInterfaceFailsTheStartupNamingTheMethodAndParameter() {
        assertThatThrownBy(() -> bind("interfaceSpec")).isInstanceOf(InvalidHandlerException.class)
                .hasMessageStartingWith("Handler Handlers.interfaceSpec(SpecInterface): parameter 'spec' of type"
                        + " SpecInterface cannot be built from the object's spec: Cannot construct instance of")
                .hasMessageEndingWith("; use a record, or a class with a public no-argument constructor");
    }

    @Test
    void aClassWithoutADefaultConstructorFailsTheStartupNamingTheMethodAndParameter() {
        assertThatThrownBy(() -> bind("noDefaultConstructor")).isInstanceOf(InvalidHandlerException.class)
                .hasMessageStartingWith("Handler Handlers.noDefaultConstructor(String, NoDefaultConstructor): parameter"
                        + " 'status' of type NoDefaultConstructor cannot be built from the object's status:");
    }

    @Test
    void aUserTypeUnderAnotherNameIsUnsupported() {
        assertThatThrownBy(() -> bind("otherName")).isInstanceOf(InvalidHandlerException.class)
                .hasMessageStartingWith("Handler Handlers.otherName(ExampleSpec): unsupported parameter 'configuration'")
                .hasMessageEndingWith("a record or POJO named spec, status or body");
    }

    private static HandlerFn bind(String name) {
        Method method = Arrays.stream(Handlers.class.getMethods()).filter(m -> m.getName().equals(name))
                .findFirst().orElseThrow();
        return ParameterBinder.bind(new Handlers(), method);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> call(String name, Body body) {
        try {
            return (List<Object>) bind(name).call(contextOf(body));
        } catch (Exception e) {
            throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
        }
    }

    /** A context that has only a body: what the typed parameters read. */
    private static HandlerContext contextOf(Body body) {
        InvocationHandler onlyTheBody = (proxy, method, arguments) -> {
            if (method.getName().equals("body")) {
                return body;
            }
            if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, arguments);
            }
            throw new UnsupportedOperationException(method.getName());
        };
        return (HandlerContext) Proxy.newProxyInstance(HandlerContext.class.getClassLoader(),
                new Class<?>[] {HandlerContext.class}, onlyTheBody);
    }
}
