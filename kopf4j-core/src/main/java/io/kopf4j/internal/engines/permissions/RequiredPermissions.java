package io.kopf4j.internal.engines.permissions;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.intents.ChangingHandler;
import io.kopf4j.internal.intents.ChildrenHandler;
import io.kopf4j.internal.intents.ConversionGraph;
import io.kopf4j.internal.intents.ConversionGraph.KindConversions;
import io.kopf4j.internal.intents.DeclaredPermission;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.IndexingHandler;
import io.kopf4j.internal.intents.NamespacePatterns;
import io.kopf4j.internal.intents.ParameterBinder;
import io.kopf4j.internal.intents.ResourceSelector;
import io.kopf4j.internal.intents.SpawningHandler;
import io.kopf4j.internal.intents.WatchingHandler;
import io.kopf4j.internal.intents.WebhookType;
import io.kopf4j.internal.selection.Selections;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The permissions an operator needs, derived from what it does with its handlers, settings and
 * served namespaces, rule by rule with the reasons: exactly the API calls kopf4j makes for each
 * feature (docs/deploying.md lists them), and what the handler classes declare with
 * {@code @Permission}. Never a wildcard.
 *
 * <pre>{@code
 * List<Rule> rules = RequiredPermissions.derive(registry, settings,
 *         new RequiredPermissions.Scope(List.of("default"), "operators", "operators", false, true),
 *         ApiCatalog.live(client, ApiRetries.NONE));
 * }</pre>
 */
public final class RequiredPermissions {
    /** Kopf's peering resources: the current group and the legacy one, both served if present. */
    private static final List<String> PEERING_GROUPS = List.of("kopf.dev", "zalando.org");
    private static final Set<String> WATCHING = Set.of("list", "watch");
    /** Server-side apply creates a missing object: {@code create} beside {@code patch}; a pruned child is deleted. */
    private static final Set<String> CHILDREN = Set.of("list", "watch", "create", "patch", "delete");

    /**
     * Where and how the operator runs.
     *
     * @param namespaces the namespace patterns ({@code -n}); empty: cluster-wide
     * @param leaseNamespace the namespace of the Leases when the settings name none: the operator's own
     * @param eventsNamespace where the Events of cluster-scoped objects go: the credentials' default namespace
     * @param anticipatePeering add the peering rules (unless standalone) even where the peering CRDs
     *                          are not served yet: for manifests, applied before Kopf's peering.yaml may be
     * @param strict a resource that cannot be resolved is an error (for manifests); else it is left
     *               out, as the operator leaves it unserved (for the preflight)
     */
    public record Scope(List<String> namespaces, String leaseNamespace, String eventsNamespace,
                        boolean anticipatePeering, boolean strict) {
        /** Keeps an immutable copy of the namespace patterns. */
        public Scope {
            namespaces = List.copyOf(namespaces);
        }
    }

    private final HandlerRegistry registry;
    private final OperatorSettings settings;
    private final Scope scope;
    private final ApiCatalog catalog;
    private final NamespacePatterns patterns;
    private final Selections selections;
    private final List<Rule> rules = new ArrayList<>();
    private List<Resource> discovered;

    private RequiredPermissions(HandlerRegistry registry, OperatorSettings settings, Scope scope, ApiCatalog catalog) {
        this.registry = registry;
        this.settings = settings;
        this.scope = scope;
        this.catalog = catalog;
        this.patterns = new NamespacePatterns(scope.namespaces());
        this.selections = Selections.of(settings.watching);
    }

    /**
     * The rules, merged per resource and namespace, in this order: the handlers' resources, what the
     * handler classes declare, Events, namespaces, CRDs, peering, Leases, webhook configurations, the
     * reviews of secure metrics.
     *
     * @param registry the operator's handlers
     * @param settings the operator's settings: peering, posting, admission and the rest that need rules
     * @param scope where and how the operator runs
     * @param catalog resolves the handlers' resources, e.g. {@code ApiCatalog.live(client)}
     * @return the rules, each resource and namespace once, optional ones marked so
     * @throws OperatorException in a strict scope, naming the handler and the selector (or the
     *         {@code @Permission}) whose resource cannot be resolved, with the remedy
     */
    public static List<Rule> derive(HandlerRegistry registry, OperatorSettings settings, Scope scope, ApiCatalog catalog) {
        RequiredPermissions derivation = new RequiredPermissions(registry, settings, scope, catalog);
        derivation.discover();
        List<Resource> served = derivation.servedResources();
        served.forEach(derivation::handling);
        derivation.children();
        derivation.declared();
        derivation.events(served);
        derivation.namespaces();
        derivation.crds();
        derivation.peering();
        derivation.leases();
        derivation.webhookConfigurations();
        derivation.conversions();
        derivation.metricsAuthorization();
        return Rule.merge(derivation.rules);
    }

    /** One discovery of the groups that any rule may concern. */
    private void discover() {
        Set<ResourceSelector> selectors = new LinkedHashSet<>(registry.selectors());
        for (ChildrenHandler handler : registry.childrenHandlers()) {
            childSelectors(handler).forEach(selector -> selectors.add(ResourceSelector.parse(selector)));
        }
        Set<String> groups = ResourceSelector.groupsToDiscover(selectors);
        if (groups != null) {
            groups = new HashSet<>(groups);
            for (DeclaredPermission permission : registry.declaredPermissions()) {
                groups.add(permission.group());
            }
            for (ChildrenHandler handler : registry.childrenHandlers()) {
                for (Class<? extends HasMetadata> type : childTypes(handler)) {
                    groups.add(Objects.requireNonNullElse(HasMetadata.getGroup(type), ""));
                }
            }
            if (!settings.peering.standalone) {
                groups.addAll(PEERING_GROUPS);
            }
        }
        discovered = catalog.resources(groups);
    }

    /** The resources the watched handlers' selectors resolve to, as the operator serves them. */
    private List<Resource> servedResources() {
        Set<Resource> served = new LinkedHashSet<>();
        for (ResourceSelector selector : registry.selectors()) {
            ResourceSelector.Resolution resolution = selector.resolve(discovered);
            if (resolution.resources().isEmpty() || resolution.ambiguous()) {
                if (scope.strict()) {
                    throw new OperatorException(handlerOf(selector) + ": its resource " + selector + " "
                            + (resolution.ambiguous() ? "is ambiguous, it matches " + resolution.resources() + "; name the group"
                            : "cannot be resolved: " + catalog.remedy()));
                }
                continue;   // not served, as the operator warns: nothing to permit
            }
            resolution.resources().stream().filter(r -> r.verbs().isEmpty() || r.verbs().containsAll(WATCHING))
                    .forEach(served::add);
        }
        return List.copyOf(served);
    }

    private String handlerOf(ResourceSelector selector) {
        List<String> origins = registry.origins(selector);
        return origins.isEmpty() ? "A handler of " + selector : "Handler " + String.join(", ", origins);
    }

    /** What kopf4j does with one served resource for its handlers: watch, and patch what they store. */
    private void handling(Resource resource) {
        List<ChangingHandler> changing = registry.changingHandlers(resource);
        List<WatchingHandler> watching = registry.watchingHandlers(resource);
        List<SpawningHandler> spawning = registry.spawningHandlers(resource);
        List<IndexingHandler> indexing = registry.indexingHandlers(resource);
        List<ChildrenHandler> children = registry.childrenHandlers(resource);
        List<String> all = new ArrayList<>();
        changing.forEach(h -> all.add(describe(h.title())));
        watching.forEach(h -> all.add(describe(h.title())));
        spawning.forEach(h -> all.add(describe(h.title())));
        indexing.forEach(h -> all.add(describe(h.title())));
        children.forEach(h -> all.add(describe(h.title())));
        String status = resource.plural() + "/status";
        for (String namespace : namespacesOf(resource.namespaced())) {
            for (String handler : all) {
                add(resource.group(), resource.plural(), WATCHING, namespace, false, handler + ": watching its objects");
            }
            if (!all.isEmpty() && selections.of(resource) != null) {
                add(resource.group(), resource.plural(), Set.of("get"), namespace, false, "settings.watching's selection of "
                        + resource.plural() + ": telling an object that left it from a deleted one");
            }
            for (ChangingHandler h : changing) {
                add(resource.group(), resource.plural(), Set.of("patch"), namespace, false,
                        describe(h.title()) + ": its progress, the diff-base and the finalizer on the objects");
            }
            for (SpawningHandler h : spawning) {
                add(resource.group(), resource.plural(), Set.of("patch"), namespace, false,
                        describe(h.title()) + ": the finalizer that stops it before the object goes");
            }
            // Results and progress go to the status: through /status where it is a subresource, else with the body.
            // Not for event handlers: most return nothing, and pods/status is no right to hand out for nothing; one
            // that returns a result declares it (@Permission(resources = "pods/status", verbs = "patch")). Nor for
            // handlers that neither return a result nor take the patch, unless the progress or the diff-base is kept there.
            boolean stateInStatus = settings.persistence.progressStorage.writesStatus()
                    || settings.persistence.diffbaseStorage.writesStatus();
            List<String> storing = new ArrayList<>();
            changing.stream().filter(h -> stateInStatus || ParameterBinder.mayWriteStatus(h.function()))
                    .forEach(h -> storing.add(describe(h.title())));
            spawning.stream().filter(h -> stateInStatus || ParameterBinder.mayWriteStatus(h.function()))
                    .forEach(h -> storing.add(describe(h.title())));
            children.stream().filter(h -> h.options().get(Option.ReadyCondition.class).isPresent()
                    || ParameterBinder.mayWriteStatus(h.function())).forEach(h -> storing.add(describe(h.title())));
            for (String handler : storing) {
                add(resource.group(), resource.hasStatusSubresource() ? status : resource.plural(), Set.of("patch"),
                        namespace, false, handler + ": its results (and progress) in the status");
            }
        }
    }

    /**
     * What the children engine does for each children handler: watch the parents and write their
     * ready condition (as the handling of their resource), and apply, watch and prune the children
     * of each declared kind (server-side apply creates with {@code patch} and {@code create}).
     */
    private void children() {
        for (ChildrenHandler handler : registry.childrenHandlers()) {
            String reason = describe(handler.title()) + ": its children, applied, watched and pruned";
            List<Resource> kinds = new ArrayList<>();
            for (Class<? extends HasMetadata> type : childTypes(handler)) {
                String group = Objects.requireNonNullElse(HasMetadata.getGroup(type), "");
                discovered.stream().filter(r -> r.group().equals(group) && r.kind().equals(HasMetadata.getKind(type))
                        && r.version().equals(HasMetadata.getVersion(type))).findFirst().ifPresentOrElse(kinds::add,
                        () -> unresolvedChild(handler, HasMetadata.getKind(type) + " (" + HasMetadata.getApiVersion(type) + ")"));
            }
            for (String selector : childSelectors(handler)) {
                try {
                    kinds.add(catalog.resolve(selector));   // as the children engine resolves it
                } catch (OperatorException e) {
                    unresolvedChild(handler, selector);
                }
            }
            for (Resource kind : kinds) {
                for (String namespace : namespacesOf(kind.namespaced())) {
                    add(kind.group(), kind.plural(), CHILDREN, namespace, false, reason);
                }
            }
        }
    }

    private void unresolvedChild(ChildrenHandler handler, String kind) {
        if (scope.strict()) {
            throw new OperatorException("Handler " + handler.origin() + ": its children's kind " + kind
                    + " cannot be resolved: " + catalog.remedy());
        }
    }

    private static List<Class<? extends HasMetadata>> childTypes(ChildrenHandler handler) {
        return handler.options().get(Option.ChildKinds.class).map(Option.ChildKinds::types).orElse(List.of());
    }

    private static List<String> childSelectors(ChildrenHandler handler) {
        return handler.options().get(Option.ChildResources.class).map(Option.ChildResources::selectors).orElse(List.of());
    }

    /** {@code handler 'create'}: its kind and id, short enough for a rule's comment (reasons are summarised, see Rule). */
    private static String describe(String title) {
        return title.replace("Handler ", "handler ").replace("Activity ", "activity ").replace("Daemon ", "daemon ")
                .replace("Timer ", "timer ").replace("Indexer ", "indexer ");
    }

    /** Where a namespaced resource is served: each exact name, or everywhere (null) for all namespaces and patterns. */
    private List<String> namespacesOf(boolean namespaced) {
        if (!namespaced || patterns.clusterWide() || !patterns.literal()) {
            return Collections.singletonList(null);
        }
        return List.copyOf(patterns.literals());
    }

    /** What the handler classes do themselves, as they declare it. */
    private void declared() {
        for (DeclaredPermission permission : registry.declaredPermissions()) {
            for (String resource : permission.resources()) {
                String plural = resource.contains("/") ? resource.substring(0, resource.indexOf('/')) : resource;
                Resource known = discovered.stream()
                        .filter(r -> r.group().equals(permission.group()) && r.plural().equals(plural)).findFirst().orElse(null);
                if (known == null && scope.strict()) {
                    throw new OperatorException(permission.origin() + ": the resource '" + plural + "' of group '"
                            + permission.group() + "' is not known: " + catalog.remedy());
                }
                // Unknown in a lenient scope: most resources are namespaced, and the check then asks for the served namespaces.
                for (String namespace : namespacesOf(known == null || known.namespaced())) {
                    add(permission.group(), resource, Set.copyOf(permission.verbs()), namespace, false,
                            permission.origin() + ": what its handlers do themselves");
                }
            }
        }
    }

    /** Kubernetes Events about the objects: posted, and patched to count repeats; the operator lives without them. */
    private void events(List<Resource> served) {
        if (!settings.posting.enabled || served.isEmpty()) {
            return;
        }
        String reason = "posting Events about the objects (settings.posting.enabled), counting repeats in them";
        Set<String> where = new LinkedHashSet<>();
        for (Resource resource : served) {
            where.addAll(resource.namespaced() ? namespacesOf(true) : Collections.singletonList(scope.eventsNamespace()));
        }
        if (where.contains(null)) {
            where = Collections.singleton(null);
        }
        for (String namespace : where) {
            add("", "events", Set.of("create", "patch"), namespace, true, reason);
        }
    }

    private boolean peeringNamespaced() {
        if (settings.peering.standalone) {
            return false;
        }
        boolean clusterwide = settings.peering.clusterwide != null ? settings.peering.clusterwide : patterns.clusterWide();
        return !clusterwide;
    }

    /** Namespace patterns: the namespaces that match, as they come and go. */
    private void namespaces() {
        if (patterns.clusterWide() || patterns.literal()) {
            return;
        }
        if (!settings.scanning.disabled) {
            add("", "namespaces", WATCHING, null, false, "namespace patterns " + scope.namespaces()
                    + ": the namespaces that match, as they come and go (not with settings.scanning.disabled)");
        }
        if (peeringNamespaced() && !peeringResources().isEmpty()) {
            add("", "namespaces", Set.of("list"), null, false, "peering in the namespaces that match " + scope.namespaces());
        }
    }

    /** CRDs appearing and vanishing while running; without it, the resources are resolved at the start only. */
    private void crds() {
        Set<ResourceSelector> observed = new LinkedHashSet<>(registry.selectors());
        observed.addAll(registry.webhookSelectors());
        if (!settings.scanning.disabled && observed.stream().anyMatch(s -> s.group() == null || !s.group().isEmpty())) {
            add("apiextensions.k8s.io", "customresourcedefinitions", WATCHING, null, true,
                    "noticing the handlers' CRDs appear and vanish while running (not with settings.scanning.disabled)");
        }
    }

    /** The peering resources of the operator's scope that are served, or Kopf's if anticipated. */
    private List<Resource> peeringResources() {
        if (settings.peering.standalone) {
            return List.of();
        }
        String plural = peeringNamespaced() ? "kopfpeerings" : "clusterkopfpeerings";
        List<Resource> found = discovered.stream()
                .filter(r -> PEERING_GROUPS.contains(r.group()) && r.plural().equals(plural) && r.preferred()).toList();
        if (found.isEmpty() && scope.anticipatePeering()) {
            return List.of(new Resource("kopf.dev", "v1", plural, "", "", List.of(), List.of(), List.of(),
                    peeringNamespaced(), true, List.of()));
        }
        return found;
    }

    /** Kopf's peering (unless standalone): the peers' records, read, watched and kept alive with patches. */
    private void peering() {
        String reason = "Kopf's peering '" + settings.peering.name + "' (not with --standalone), if its CRDs are applied";
        for (Resource resource : peeringResources()) {
            for (String namespace : namespacesOf(resource.namespaced())) {
                add(resource.group(), resource.plural(), Set.of("list", "watch", "patch"), namespace, false, reason);
            }
        }
    }

    /** Leader election (fabric8's LeaseLock: get, create, patch) and sharding (one Lease per replica). */
    private void leases() {
        if (settings.leadership.enabled) {
            String namespace = settings.leadership.leaseNamespace != null ? settings.leadership.leaseNamespace : scope.leaseNamespace();
            add("coordination.k8s.io", "leases", Set.of("get", "create", "patch"), namespace, false,
                    "leader election (--leader-election): the Lease '" + settings.leadership.leaseName + "'");
        }
        if (settings.sharding.shards != null) {
            String namespace = settings.sharding.namespace != null ? settings.sharding.namespace : scope.leaseNamespace();
            add("coordination.k8s.io", "leases", Set.of("list", "create", "update", "delete"), namespace, false,
                    "sharding (--shards): the replicas' Leases");
        }
    }

    /**
     * The webhook configurations that kopf4j keeps (settings.admission.managed): created, then patched;
     * both kinds, as the admission engine keeps both ({@link WebhookType#managed}).
     */
    private void webhookConfigurations() {
        for (WebhookType type : WebhookType.managed(settings, registry)) {
            add("admissionregistration.k8s.io", type.kind().toLowerCase(java.util.Locale.ROOT) + "s", Set.of("create", "patch"),
                    null, false, "the managed " + type.kind() + " '" + settings.admission.managed + "' (settings.admission.managed)");
        }
    }

    /** The CRDs whose {@code spec.conversion} kopf4j keeps pointing at its webhook server (settings.conversion.managed). */
    private void conversions() {
        // A server serves the conversions: the one set, or kopf4j's choice at the start (WebhookServerChoice).
        if (settings.conversion.managed) {
            List<String> crds = ConversionGraph.of(registry.conversions()).kinds().stream()
                    .map(KindConversions::crdName).toList();
            if (!crds.isEmpty()) {
                add("apiextensions.k8s.io", "customresourcedefinitions", Set.of("patch"), null, false,
                        "the conversion webhook of " + String.join(", ", crds) + " (settings.conversion.managed)");
            }
        }
    }

    /** Secure metrics: each scraper's token reviewed and its access to {@code /metrics} asked, as controller-runtime's filter does. */
    private void metricsAuthorization() {
        if (settings.metrics.secure) {
            String reason = "secure metrics (--metrics-secure): authenticating and authorising each scraper";
            add("authentication.k8s.io", "tokenreviews", Set.of("create"), null, false, reason);
            add("authorization.k8s.io", "subjectaccessreviews", Set.of("create"), null, false, reason);
        }
    }

    private void add(String group, String resource, Set<String> verbs, String namespace, boolean optional, String reason) {
        rules.add(new Rule(group, resource, verbs, namespace, optional, List.of(reason)));
    }
}
