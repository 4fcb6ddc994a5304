package io.kopf4j.internal.engines.conversion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.kopf4j.Conversion;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.On;
import io.kopf4j.internal.engines.conversion.Widgets.V1;
import io.kopf4j.internal.engines.conversion.Widgets.V1alpha1;
import io.kopf4j.internal.engines.conversion.Widgets.V1beta1;
import io.kopf4j.internal.intents.ConversionGraph;
import io.kopf4j.internal.intents.ConversionHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerScanner;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The conversions as hub and spoke: the storage version in the middle, both directions per version, errors naming the method. */
class ConversionGraphTest {
    static final ConversionHandler UP = ConversionHandler.of(Conversion.of(V1alpha1.Widget.class, V1.Widget.class,
            Widgets::up), "up");
    static final ConversionHandler DOWN = ConversionHandler.of(Conversion.of(V1.Widget.class, V1alpha1.Widget.class,
            Widgets::down), "down");
    static final ConversionHandler UP_BETA = ConversionHandler.of(Conversion.of(V1beta1.Widget.class, V1.Widget.class,
            Widgets::upFromBeta), "upFromBeta");
    static final ConversionHandler DOWN_BETA = ConversionHandler.of(Conversion.of(V1.Widget.class, V1beta1.Widget.class,
            Widgets::downToBeta), "downToBeta");

    @Test
    void theStorageVersionIsTheHubAndTwoOthersGoThroughIt() {
        ConversionGraph graph = ConversionGraph.of(List.of(UP, DOWN, UP_BETA, DOWN_BETA));

        assertThat(graph.kinds()).singleElement().satisfies(kind -> {
            assertThat(kind.hub().version()).isEqualTo("v1");
            assertThat(kind.crdName()).isEqualTo("widgets.kopf4j.dev");
            assertThat(kind.versions()).containsExactly("v1", "v1alpha1", "v1beta1");
        });
        assertThat(graph.path("kopf4j.dev", "Widget", "v1alpha1", "v1beta1")).containsExactly(UP, DOWN_BETA);
        assertThat(graph.path("kopf4j.dev", "Widget", "v1", "v1alpha1")).containsExactly(DOWN);
        assertThat(graph.path("kopf4j.dev", "Widget", "v1beta1", "v1")).containsExactly(UP_BETA);
        assertThat(graph.reverse(UP)).isSameAs(DOWN);
        assertThat(graph.reverse(DOWN_BETA)).isSameAs(UP_BETA);
    }

    @Test
    void aVersionWithOneDirectionOnlyFailsTheStartNamingTheMissingOne() {
        assertThatThrownBy(() -> ConversionGraph.of(List.of(UP)))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessage("No conversion of Widget.kopf4j.dev from v1 Widget (" + V1.Widget.class.getName() + ") to"
                        + " v1alpha1, the way back of up: add an @On.Convert method taking Widget and returning Widget"
                        + " (the API server converts both ways)");
        assertThatThrownBy(() -> ConversionGraph.of(List.of(DOWN, UP, DOWN_BETA)))
                .hasMessageStartingWith("No conversion of Widget.kopf4j.dev from v1beta1 Widget");
    }

    @Test
    void anUnknownVersionIsNamedWithTheKnownOnes() {
        ConversionGraph graph = ConversionGraph.of(List.of(UP, DOWN));

        assertThatThrownBy(() -> graph.path("kopf4j.dev", "Widget", "v1alpha1", "v2"))
                .hasMessage("this operator has no conversions of Widget version v2; it converts [v1, v1alpha1]");
        assertThatThrownBy(() -> graph.path("kopf4j.dev", "Gadget", "v1alpha1", "v1"))
                .hasMessage("this operator has no conversions of Gadget.kopf4j.dev");
    }

    static final class TwoStorages {
        private TwoStorages() {
        }

        @io.fabric8.kubernetes.model.annotation.Group("kopf4j.dev")
        @io.fabric8.kubernetes.model.annotation.Version("v1alpha1")   // storage = true by fabric8's default
        public static class Widget extends io.fabric8.kubernetes.client.CustomResource<Void, Void> {
        }
    }

    @Test
    void twoStorageVersionsAreOneErrorWithTheHint() {
        ConversionHandler up = ConversionHandler.of(Conversion.of(TwoStorages.Widget.class, V1.Widget.class,
                old -> new V1.Widget()), "up");
        ConversionHandler down = ConversionHandler.of(Conversion.of(V1.Widget.class, TwoStorages.Widget.class,
                hub -> new TwoStorages.Widget()), "down");

        assertThatThrownBy(() -> ConversionGraph.of(List.of(up, down)))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessage("Conversions of Widget.kopf4j.dev need exactly one storage version (the hub), but v1alpha1"
                        + " and v1 are marked @Version(storage = true); fabric8's default is true: mark the others"
                        + " @Version(value = \"...\", storage = false)");
    }

    @Test
    void aConversionBetweenTwoSpokesIsRefused() {
        ConversionHandler sideways = ConversionHandler.of(Conversion.of(V1alpha1.Widget.class, V1beta1.Widget.class,
                old -> new V1beta1.Widget()), "sideways");

        assertThatThrownBy(() -> ConversionGraph.of(List.of(UP, DOWN, UP_BETA, DOWN_BETA, sideways)))
                .hasMessage("Conversion sideways converts v1alpha1 Widget (" + V1alpha1.Widget.class.getName() + ") to"
                        + " v1beta1, but conversions go to and from the storage version v1 (hub and spoke): convert"
                        + " each version to v1 and back, and kopf4j goes through v1 between the others");
    }

    /** A custom resource class without {@code @Group} and {@code @Version}. */
    public static class Unversioned extends io.fabric8.kubernetes.client.CustomResource<Void, Void> {
    }

    @Test
    void classesThatAreNotVersionsOfOneKindAreRefusedWhenRegistered() {
        assertThatThrownBy(() -> ConversionHandler.of(Conversion.of(Unversioned.class, V1.Widget.class,
                old -> new V1.Widget()), "unversioned"))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessage("Conversion unversioned: " + Unversioned.class.getName() + " is not a version of a custom"
                        + " resource: it needs to extend CustomResource (or implement HasMetadata) and carry fabric8's"
                        + " @Group and @Version");
        assertThatThrownBy(() -> ConversionHandler.of(Conversion.of(ConfigMap.class, V1.Widget.class,
                old -> new V1.Widget()), "configMap"))
                .hasMessage("Conversion configMap converts between two kinds, ConfigMap.v1 and Widget.kopf4j.dev:"
                        + " a conversion is between two versions of one kind");
        assertThatThrownBy(() -> ConversionHandler.of(Conversion.of(V1.Widget.class, V1.Widget.class,
                same -> same), "same"))
                .hasMessage("Conversion same converts version v1 to itself: give it the classes of two versions");
    }

    public static class Methods {
        @On.Convert
        public V1.Widget up(V1alpha1.Widget old) {
            return Widgets.up(old);
        }

        @On.Convert
        public static V1alpha1.Widget down(V1.Widget hub) {
            return Widgets.down(hub);
        }
    }

    public static class TwoParameters {
        @On.Convert
        public V1.Widget up(V1alpha1.Widget old, String extra) {
            return Widgets.up(old);
        }
    }

    @Test
    void annotatedMethodsAreFoundAndCheckedByTheScanner() {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(Methods.class, registry);

        assertThat(registry.conversions()).extracting(ConversionHandler::origin)
                .containsExactly("Methods.down(Widget)", "Methods.up(Widget)");
        assertThat(ConversionGraph.of(registry.conversions()).kinds()).hasSize(1);
        assertThatThrownBy(() -> HandlerScanner.scan(Methods.class, registry))
                .hasMessageContaining("as Methods.down(Widget) already does: keep one");
        assertThatThrownBy(() -> HandlerScanner.scan(TwoParameters.class, new HandlerRegistry()))
                .hasMessage("Conversion TwoParameters.up(Widget, String) must take exactly one parameter: the object in"
                        + " its source version (a class with @Group and @Version)");
    }
}
