package io.kopf4j.internal.engines.conversion;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Two versions of one kind for the conversion tests: v1alpha1 has a size in gigabytes as a number,
 * v1 (the storage version, the hub) a size with its unit, which v1alpha1 cannot hold.
 */
final class Widgets {
    private Widgets() {
    }

    /** The old version. */
    static final class V1alpha1 {
        private V1alpha1() {
        }

        @Group("kopf4j.dev")
        @Version(value = "v1alpha1", storage = false)
        public static class Widget extends CustomResource<Widget.Spec, Void> implements Namespaced {
            public record Spec(String field, Integer size) {
            }
        }
    }

    /** The storage version. */
    static final class V1 {
        private V1() {
        }

        @Group("kopf4j.dev")
        @Version("v1")
        public static class Widget extends CustomResource<Widget.Spec, Void> implements Namespaced {
            public record Spec(String field, Size size) {
            }

            public record Size(Integer amount, String unit) {
            }
        }
    }

    /** A third version, converted through the hub. */
    static final class V1beta1 {
        private V1beta1() {
        }

        @Group("kopf4j.dev")
        @Version(value = "v1beta1", storage = false)
        public static class Widget extends CustomResource<Widget.Spec, Void> implements Namespaced {
            public record Spec(String field, String size) {
            }
        }
    }

    static V1.Widget up(V1alpha1.Widget old) {
        V1.Widget widget = new V1.Widget();
        Integer size = old.getSpec().size();
        widget.setSpec(new V1.Widget.Spec(old.getSpec().field(), size == null ? null : new V1.Widget.Size(size, "Gi")));
        return widget;
    }

    static V1alpha1.Widget down(V1.Widget hub) {
        V1.Widget.Size size = hub.getSpec().size();
        if (size != null && size.amount() != null && size.amount() > 1000) {
            throw new IllegalArgumentException("size too large for v1alpha1: " + size.amount());
        }
        V1alpha1.Widget widget = new V1alpha1.Widget();
        widget.setSpec(new V1alpha1.Widget.Spec(hub.getSpec().field(), size == null ? null : size.amount()));
        return widget;
    }

    static V1.Widget upFromBeta(V1beta1.Widget old) {
        V1.Widget widget = new V1.Widget();
        String size = old.getSpec().size();
        widget.setSpec(new V1.Widget.Spec(old.getSpec().field(), size == null ? null
                : new V1.Widget.Size(Integer.parseInt(size.replaceAll("\\D", "")), size.replaceAll("\\d", ""))));
        return widget;
    }

    static V1beta1.Widget downToBeta(V1.Widget hub) {
        V1beta1.Widget widget = new V1beta1.Widget();
        V1.Widget.Size size = hub.getSpec().size();
        widget.setSpec(new V1beta1.Widget.Spec(hub.getSpec().field(), size == null ? null : size.amount() + size.unit()));
        return widget;
    }
}
