package io.kopf4j.internal.engines.children;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.HandlerKind;
import io.kopf4j.Resource;
import io.kopf4j.internal.engines.permissions.ApiCatalog;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.Specs;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChildKindsTest {
    private static Resource served(String group, String plural, String kind) {
        return new Resource(group, "v1", plural, kind, kind.toLowerCase(), List.of(), List.of(), List.of(), true, true,
                List.of("list", "watch", "patch"));
    }

    private static final ApiCatalog CATALOG = new ApiCatalog() {
        private final List<Resource> all = List.of(served("", "configmaps", "ConfigMap"), served("apps", "deployments", "Deployment"));

        @Override
        public List<Resource> resources(Set<String> groups) {
            return all.stream().filter(resource -> groups == null || groups.contains(resource.group())).toList();
        }

        @Override
        public String remedy() {
            return "install its CRD";
        }
    };

    private static final ChildKinds.Discovery DISCOVERY = new ChildKinds.Discovery(CATALOG::resources, CATALOG::resolve,
            CATALOG.remedy());

    private static HandlerRegistry registry(Option... kinds) {
        HandlerRegistry registry = new HandlerRegistry();
        Option[] options = new Option[kinds.length + 1];
        options[0] = new Option.Id("children");
        System.arraycopy(kinds, 0, options, 1, kinds.length);
        Specs.spec(HandlerKind.CHILDREN, List.of("kopfexamples"), options).register(context -> null, registry);
        return registry;
    }

    @Test
    void typesAndSelectorsResolveToTheServedResources() {
        var resolved = ChildKinds.of(registry(new Option.ChildKinds(List.of(Deployment.class)),
                new Option.ChildResources(List.of("configmaps"))).childrenHandlers().getFirst(), DISCOVERY);
        assertThat(resolved.keySet()).containsExactly("apps/Deployment", "/ConfigMap");
        assertThat(resolved.get("apps/Deployment").plural()).isEqualTo("deployments");
    }

    @Test
    void anUnservedKindStopsTheStartNamingTheHandler() {
        assertThatThrownBy(() -> ChildKinds.of(registry(new Option.ChildKinds(List.of(ConfigMap.class, CronJob.class)))
                .childrenHandlers().getFirst(), DISCOVERY))
                .hasMessageContaining("its children's kind CronJob (batch/v1) is not served by the API server; install its CRD");
    }
}
