package io.kopf4j.internal.engines.permissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kopf4j.Children;
import io.kopf4j.Conversion;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.On;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Permission;
import io.kopf4j.Resource;
import io.kopf4j.internal.intents.ConversionHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerScanner;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RequiredPermissionsTest {
    private static final Resource EXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample", "kopfexample",
            List.of("kex"), List.of(), List.of("status"), true, true, List.of("list", "watch", "patch"));
    private static final Resource CONFIG_MAPS = new Resource("", "v1", "configmaps", "ConfigMap", "configmap",
            List.of("cm"), List.of(), List.of(), true, true, List.of("list", "watch", "patch", "create"));
    private static final ApiCatalog CATALOG = new ApiCatalog() {
        @Override
        public List<Resource> resources(Set<String> groups) {
            return List.of(EXAMPLES, CONFIG_MAPS);
        }

        @Override
        public String remedy() {
            return "pass its CRD";
        }
    };

    @Permission(resources = "configmaps", verbs = {"create", "get"})
    public static class Handlers {
        @On.Create("kopfexamples")
        public String create() {
            return "done";
        }

        @On.Event("kopfexamples")
        public void seen() {
        }
    }

    public static class Unresolvable {
        @On.Create("widgets")
        public void create() {
        }
    }

    @Permission(resources = "*", verbs = "get")
    public static class Wildcard {
        @On.Create("kopfexamples")
        public void create() {
        }
    }

    public static class Parents {
        @Children(value = "configmaps", kinds = Deployment.class, resources = "cronjobs.batch", readyCondition = "Ready")
        public List<Object> children() {
            return List.of();
        }
    }

    private static List<Rule> derive(Class<?> handlers, OperatorSettings settings, List<String> namespaces, boolean strict) {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(handlers, registry);
        return RequiredPermissions.derive(registry, settings,
                new RequiredPermissions.Scope(namespaces, "operators", "operators", true, strict), CATALOG);
    }

    private static OperatorSettings standalone() {
        OperatorSettings settings = new OperatorSettings();
        settings.peering.standalone = true;
        return settings;
    }

    private static String summary(Rule rule) {
        return (rule.namespace() == null ? "*" : rule.namespace()) + " " + rule.group() + "/" + rule.resource() + " " + rule.verbs()
                + (rule.optional() ? " optional" : "");
    }

    /** Two versions of one kind, for the conversions' rule. */
    static final class Things {
        private Things() {
        }

        @io.fabric8.kubernetes.model.annotation.Group("example.com")
        @io.fabric8.kubernetes.model.annotation.Version(value = "v1alpha1", storage = false)
        @io.fabric8.kubernetes.model.annotation.Kind("Thing")
        public static class Old extends io.fabric8.kubernetes.client.CustomResource<Void, Void> {
        }

        @io.fabric8.kubernetes.model.annotation.Group("example.com")
        @io.fabric8.kubernetes.model.annotation.Version("v1")
        @io.fabric8.kubernetes.model.annotation.Kind("Thing")
        public static class New extends io.fabric8.kubernetes.client.CustomResource<Void, Void> {
        }
    }

    @Test
    void managedConversionsPatchTheirCrdsWhenManaged() {
        HandlerRegistry registry = new HandlerRegistry();
        OperatorSettings settings = standalone();
        RequiredPermissions.Scope scope = new RequiredPermissions.Scope(List.of("a"), "operators", "operators", true, true);
        // With conversions, a server serves them: the one set, or kopf4j's choice at the start when none is.
        registry.add(ConversionHandler.of(Conversion.of(Things.Old.class, Things.New.class, old -> new Things.New()), "up"));
        registry.add(ConversionHandler.of(Conversion.of(Things.New.class, Things.Old.class, hub -> new Things.Old()), "down"));
        settings.admission.server = null;
        List<Rule> rules = RequiredPermissions.derive(registry, settings, scope, OfflineCatalog.of(List.of()));
        assertThat(rules).filteredOn(rule -> rule.verbs().contains("patch"))
                .singleElement().satisfies(rule -> {
                    assertThat(summary(rule)).isEqualTo("* apiextensions.k8s.io/customresourcedefinitions [patch]");
                    assertThat(rule.reasons()).containsExactly(
                            "the conversion webhook of things.example.com (settings.conversion.managed)");
                });

        settings.conversion.managed = false;
        assertThat(RequiredPermissions.derive(registry, settings, scope, OfflineCatalog.of(List.of())))
                .noneMatch(rule -> rule.verbs().contains("patch") && rule.resource().equals("customresourcedefinitions"));
    }

    @Test
    void childrenAreAppliedWatchedAndPrunedInTheirKindsAndTheirParentsConditionIsWritten() {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(Parents.class, registry);
        List<Rule> rules = RequiredPermissions.derive(registry, standalone(),
                new RequiredPermissions.Scope(List.of("a"), "operators", "operators", true, true), OfflineCatalog.of(List.of()));
        assertThat(rules).map(RequiredPermissionsTest::summary).startsWith(
                "a /configmaps [list, patch, watch]",
                "a apps/deployments [create, delete, list, patch, watch]",
                "a batch/cronjobs [create, delete, list, patch, watch]");
        assertThat(rules.get(1).reasons()).containsExactly("handler 'children': its children, applied, watched and pruned");
    }

    @Test
    void explicitNamespacesGetTheVerbsOfTheirHandlersAndFeaturesEachInItsOwnRole() {
        List<Rule> rules = derive(Handlers.class, standalone(), List.of("a", "b"), true);
        assertThat(rules).map(RequiredPermissionsTest::summary).containsExactly(
                "a kopf.dev/kopfexamples [list, patch, watch]",
                "a kopf.dev/kopfexamples/status [patch]",
                "b kopf.dev/kopfexamples [list, patch, watch]",
                "b kopf.dev/kopfexamples/status [patch]",
                "a /configmaps [create, get]",
                "b /configmaps [create, get]",
                "a /events [create, patch] optional",
                "b /events [create, patch] optional",
                "* apiextensions.k8s.io/customresourcedefinitions [list, watch] optional");
        assertThat(rules.getFirst().reasons()).contains("handler 'create': watching its objects",
                "handler 'seen': watching its objects",
                "handler 'create': its progress, the diff-base and the finalizer on the objects");
        assertThat(rules.getFirst().summary()).containsExactly("handler 'create', handler 'seen': watching its objects",
                "handler 'create': its progress, the diff-base and the finalizer on the objects");
        assertThat(rules.get(4).reasons()).containsExactly("@Permission on Handlers: what its handlers do themselves");
    }

    @Test
    void aServerSideSelectionReadsTheObjectsThatLeaveIt() {
        OperatorSettings settings = standalone();
        settings.watching.labelSelectors.put("kopfexamples", "app=web");
        List<Rule> rules = derive(Handlers.class, settings, List.of("a"), true);
        assertThat(rules).map(RequiredPermissionsTest::summary).startsWith("a kopf.dev/kopfexamples [get, list, patch, watch]");
        assertThat(rules.get(0).reasons()).contains(
                "settings.watching's selection of kopfexamples: telling an object that left it from a deleted one");
    }

    @Test
    void patternsPeeringAndLeasesAddTheirClusterWideAndNamespacedRules() {
        OperatorSettings settings = new OperatorSettings();
        settings.leadership.enabled = true;
        settings.sharding.shards = 2;
        settings.scanning.disabled = false;
        List<Rule> rules = derive(Handlers.class, settings, List.of("team-*"), true);
        assertThat(rules).map(RequiredPermissionsTest::summary).contains(
                "* kopf.dev/kopfexamples [list, patch, watch]",
                "* /namespaces [list, watch]",
                "* kopf.dev/kopfpeerings [list, patch, watch]",
                // Leader election's (get, create, patch) and sharding's (list, create, update, delete), in one rule.
                "operators coordination.k8s.io/leases [create, delete, get, list, patch, update]");
        assertThat(rules).allSatisfy(rule -> assertThat(rule.verbs() + rule.resource() + rule.group()).doesNotContain("*"));
    }

    @Test
    void clusterWideWithoutScanningNeedsNoCrdRuleAndPeersInTheClusterPeering() {
        OperatorSettings settings = new OperatorSettings();
        settings.scanning.disabled = true;
        settings.posting.enabled = false;
        List<Rule> rules = derive(Handlers.class, settings, List.of(), true);
        assertThat(rules).map(RequiredPermissionsTest::summary).containsExactly(
                "* kopf.dev/kopfexamples [list, patch, watch]",
                "* kopf.dev/kopfexamples/status [patch]",
                "* /configmaps [create, get]",
                "* kopf.dev/clusterkopfpeerings [list, patch, watch]");
    }

    @Test
    void anUnresolvableResourceIsAnErrorForManifestsAndLeftOutForThePreflight() {
        assertThatThrownBy(() -> derive(Unresolvable.class, standalone(), List.of("a"), true))
                .isInstanceOf(OperatorException.class)
                .hasMessage("Handler Unresolvable.create(): its resource widgets cannot be resolved: pass its CRD");
        assertThat(derive(Unresolvable.class, standalone(), List.of("a"), false)).map(RequiredPermissionsTest::summary)
                .containsExactly("* apiextensions.k8s.io/customresourcedefinitions [list, watch] optional");
    }

    @Test
    void aWildcardPermissionIsRejectedNamingItsClass() {
        assertThatThrownBy(() -> derive(Wildcard.class, standalone(), List.of("a"), true))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessageStartingWith("@Permission on Wildcard: resources and verbs must be named, one by one, without wildcards");
    }
}
