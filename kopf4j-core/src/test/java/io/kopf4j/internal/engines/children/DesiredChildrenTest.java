package io.kopf4j.internal.engines.children;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DesiredChildrenTest {
    private static final Map<String, Object> PARENT = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "metadata", Map.of("name", "web", "namespace", "shop", "uid", "u-1", "labels", Map.of("team", "a")));
    private static final Set<String> DECLARED = Set.of("/ConfigMap", "apps/Deployment");

    @Test
    void childrenAreAdoptedLabelledAndStrippedOfWhatTheServerOwns() {
        List<DesiredChildren.Child> children = DesiredChildren.of(List.of(
                new ConfigMapBuilder().withNewMetadata().withName("web-config").withUid("x").withResourceVersion("7").endMetadata()
                        .addToData("k", "v").build(),
                Map.of("apiVersion", "apps/v1", "kind", "Deployment", "status", Map.of("replicas", 1))), PARENT, "kopf4j", "children", DECLARED);
        assertThat(children).extracting(DesiredChildren.Child::toString)
                .containsExactly("ConfigMap 'shop/web-config'", "Deployment 'shop/web'");
        Map<String, Object> config = children.get(0).body();
        @SuppressWarnings("unchecked")
        Map<String, Object> metadata = (Map<String, Object>) config.get("metadata");
        assertThat(metadata).doesNotContainKeys("uid", "resourceVersion").containsEntry("namespace", "shop")
                .containsEntry("labels", Map.of("team", "a", DesiredChildren.MANAGED_BY, "kopf4j"))
                .containsEntry("annotations", Map.of(DesiredChildren.HANDLER, "children"));
        assertThat(metadata.get("ownerReferences")).isEqualTo(List.of(Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
                "name", "web", "uid", "u-1", "controller", true, "blockOwnerDeletion", true)));
        assertThat(children.get(1).body()).doesNotContainKey("status");
        assertThat(children.get(1).groupKind()).isEqualTo("apps/Deployment");
    }

    @Test
    void whatCannotBeAppliedIsRefusedNamingTheChild() {
        assertThatThrownBy(() -> DesiredChildren.of(List.of(Map.of("apiVersion", "v1", "kind", "Secret")), PARENT, "kopf4j", "children", DECLARED))
                .hasMessageStartingWith("child #1, Secret 'shop/web', is of a kind the handler does not declare");
        assertThatThrownBy(() -> DesiredChildren.of(List.of(Map.of("apiVersion", "v1", "kind", "ConfigMap"),
                new ConfigMapBuilder().build()), PARENT, "kopf4j", "children", DECLARED))
                .hasMessageContaining("child #2 is ConfigMap 'shop/web' again");
        assertThatThrownBy(() -> DesiredChildren.of(new DeploymentBuilder().withNewMetadata().withGenerateName("web-").endMetadata()
                .build(), PARENT, "kopf4j", "children", DECLARED))
                .hasMessageContaining("has only a generateName");
        assertThatThrownBy(() -> DesiredChildren.of(Map.of("metadata", Map.of()), PARENT, "kopf4j", "children", DECLARED))
                .hasMessageStartingWith("child #1 has no apiVersion or kind");
        assertThat(DesiredChildren.of(null, PARENT, "kopf4j", "children", DECLARED)).isEmpty();
    }
}
