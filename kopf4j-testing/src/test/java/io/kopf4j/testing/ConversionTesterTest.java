package io.kopf4j.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.On;
import org.junit.jupiter.api.Test;

/** ConversionTester: round trips through every version, the lost field named, the webhook's own rules. */
class ConversionTesterTest {
    public static final class V1alpha1 {
        private V1alpha1() {
        }

        @Group("testing.kopf4j.dev")
        @Version(value = "v1alpha1", storage = false)
        public static class Gizmo extends CustomResource<Gizmo.Spec, Void> implements Namespaced {
            public record Spec(Integer size) {
            }
        }
    }

    public static final class V1 {
        private V1() {
        }

        @Group("testing.kopf4j.dev")
        @Version("v1")
        public static class Gizmo extends CustomResource<Gizmo.Spec, Void> implements Namespaced {
            public record Spec(Integer size, String unit) {
            }
        }
    }

    public static class GizmoConversions {
        @On.Convert
        public V1.Gizmo up(V1alpha1.Gizmo old) {
            V1.Gizmo gizmo = new V1.Gizmo();
            gizmo.setSpec(new V1.Gizmo.Spec(old.getSpec().size(), "Gi"));
            return gizmo;
        }

        @On.Convert
        public V1alpha1.Gizmo down(V1.Gizmo hub) {
            V1alpha1.Gizmo gizmo = new V1alpha1.Gizmo();
            gizmo.setSpec(new V1alpha1.Gizmo.Spec(hub.getSpec().size()));
            return gizmo;
        }
    }

    public static class OneWay {
        @On.Convert
        public V1.Gizmo up(V1alpha1.Gizmo old) {
            return new V1.Gizmo();
        }
    }

    private static V1.Gizmo hub(int size, String unit) {
        V1.Gizmo gizmo = new V1.Gizmo();
        gizmo.setMetadata(new ObjectMetaBuilder().withName("g1").withNamespace("ns").addToLabels("app", "x").build());
        gizmo.setSpec(new V1.Gizmo.Spec(size, unit));
        return gizmo;
    }

    @Test
    void aRoundTripGivesTheSampleBackWithKopf4jsRecord() {
        V1alpha1.Gizmo old = new V1alpha1.Gizmo();
        old.setSpec(new V1alpha1.Gizmo.Spec(3));
        ConversionTester.of(new GizmoConversions()).assertRoundTrip(hub(5, "Mi"), old);
    }

    @Test
    void withoutTheRecordTheLostFieldIsNamedWithTheVersions() {
        ConversionTester tester = ConversionTester.of(GizmoConversions.class).withoutRecord();

        tester.assertRoundTrip(hub(5, "Gi"));   // what the way back makes anyway is not lost
        assertThatThrownBy(() -> tester.assertRoundTrip(hub(5, "Mi")))
                .isInstanceOf(AssertionError.class)
                .hasMessage("v1 → v1alpha1 → v1 (without the record) loses spec.unit: \"Mi\" came back as \"Gi\"");
    }

    @Test
    void convertGivesTheOtherVersionsObjectWithTheSamplesMetadata() {
        V1alpha1.Gizmo old = ConversionTester.of(new GizmoConversions()).convert(hub(5, "Gi"), V1alpha1.Gizmo.class);

        assertThat(old.getSpec().size()).isEqualTo(5);
        assertThat(old.getMetadata().getName()).isEqualTo("g1");
        assertThat(old.getMetadata().getLabels()).containsEntry("app", "x");
    }

    @Test
    void conversionsThatTheOperatorWouldRefuseAreRefusedHere() {
        assertThatThrownBy(() -> ConversionTester.of(new OneWay()))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessageStartingWith("No conversion of Gizmo.testing.kopf4j.dev from v1 Gizmo");
    }
}
