package io.kopf4j.internal.loading;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Memo;
import io.kopf4j.On;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.engines.activities.Activities;
import io.kopf4j.internal.engines.permissions.AccessReview;
import io.kopf4j.internal.engines.permissions.ApiCatalog;
import io.kopf4j.internal.engines.permissions.Preflight;
import io.kopf4j.internal.engines.permissions.RequiredPermissions;
import io.kopf4j.internal.engines.permissions.Rule;
import io.kopf4j.internal.intents.ActivityHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerScanner;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * An operator as {@code kopf4j run} would start it, without starting it: its handler classes,
 * settings and namespaces, for the commands that derive its permissions
 * ({@code kopf4j manifests}) and check them ({@code kopf4j check-rbac}).
 *
 * <pre>{@code
 * OperatorPlan plan = runOptions.plan();
 * try (KubernetesClient client = plan.client()) {
 *     List<Rule> rules = plan.rules(ApiCatalog.live(client, ApiRetries.NONE), "operators");
 *     Preflight.Outcome outcome = plan.check(client, null);   // for the kubeconfig's own user
 * }
 * }</pre>
 */
public final class OperatorPlan {
    /**
     * The options that a deployment may change without another build of the operator (a Helm chart's
     * values), and that change its permissions: the namespaces served ({@code -n}), leader election
     * ({@code --leader-election}) and secure metrics ({@code --metrics-secure}).
     *
     * @param namespaces the namespace patterns; empty: cluster-wide
     * @param leaderElection whether a leader is elected with a Lease
     * @param metricsSecure whether {@code /metrics} is served over HTTPS to the scrapers the API server allows
     */
    public record Choices(List<String> namespaces, boolean leaderElection, boolean metricsSecure) {
        /** Keeps an immutable copy of the namespace patterns. */
        public Choices {
            namespaces = List.copyOf(namespaces);
        }
    }

    private final List<Class<?>> classes;
    private final HandlerRegistry registry = new HandlerRegistry();
    private final Function<Choices, OperatorSettings> settingsOf;
    private final Choices choices;
    private final OperatorSettings settings;
    private final Path kubeconfig;
    private final String context;

    /**
     * The plan of these handler classes, with the settings of the options and these choices.
     *
     * @param settingsOf the settings of the options with some choices, before the startup handlers change them
     */
    OperatorPlan(List<Class<?>> classes, Function<Choices, OperatorSettings> settingsOf, Choices choices, Path kubeconfig,
                 String context) {
        this.classes = List.copyOf(classes);
        this.settingsOf = settingsOf;
        this.choices = choices;
        this.settings = settingsOf.apply(choices);
        this.kubeconfig = kubeconfig;
        this.context = context;
        classes.forEach(type -> HandlerScanner.scan(type, registry));
        configure();
    }

    /**
     * The same operator as a run with other choices would make it: the options' settings with these
     * choices, and the startup handlers that take the settings run again on them (they may override
     * a choice, as they do in a run). For what a Helm chart's values change: its RBAC, derived for each.
     *
     * <pre>{@code
     * OperatorPlan everywhere = plan.with(new OperatorPlan.Choices(List.of(), true, true));
     * }</pre>
     *
     * @param other the namespaces, leader election and secure metrics of the run
     * @return a new plan of the same handler classes
     */
    public OperatorPlan with(Choices other) {
        return new OperatorPlan(classes, settingsOf, other, kubeconfig, context);
    }

    /** {@return the namespaces, leader election and secure metrics as the options chose them} */
    public Choices choices() {
        return choices;
    }

    /**
     * Runs the startup handlers that take the settings: Kopf's way to configure an operator, so the
     * permissions follow what they set (managed webhook configurations, peering, posting...). The
     * other startup handlers do not run here: they may act on the world, and change no settings.
     */
    private void configure() {
        Set<String> configuring = classes.stream().flatMap(type -> Arrays.stream(type.getMethods()))
                .filter(method -> method.isAnnotationPresent(On.Startup.class)
                        && Arrays.asList(method.getParameterTypes()).contains(OperatorSettings.class))
                .map(method -> method.getAnnotation(On.Startup.class).id().isEmpty() ? method.getName()
                        : method.getAnnotation(On.Startup.class).id())
                .collect(Collectors.toSet());
        List<ActivityHandler> handlers = registry.activities(ActivityHandler.STARTUP).stream()
                .filter(handler -> configuring.contains(handler.id())).toList();
        try {
            Activities.run(ActivityHandler.STARTUP, handlers, settings, new Memo());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OperatorException("interrupted while running the startup handlers that configure the settings", e);
        }
    }

    /** {@return the classes with the handlers, in the order given} */
    public List<Class<?>> handlerClasses() {
        return classes;
    }

    /** {@return the settings as the options and the startup handlers that take the settings make them} */
    public OperatorSettings settings() {
        return settings;
    }

    /** {@return whether the API server calls the operator (admission handlers, conversions): it serves webhooks} */
    public boolean needsWebhookServer() {
        return registry.needsWebhookServer();
    }

    /** {@return the namespace patterns; empty: cluster-wide} */
    public List<String> namespaces() {
        return choices.namespaces();
    }

    /** {@return whether a kubeconfig was named explicitly (--kubeconfig)} */
    public boolean explicitCluster() {
        return kubeconfig != null;
    }

    /**
     * A client of the cluster the options name: {@code --kubeconfig} and {@code --context}, else
     * {@code $KUBECONFIG}, {@code ~/.kube/config} or the pod's service account.
     *
     * @return a new client, which the caller closes
     */
    public KubernetesClient client() {
        return ClusterClients.of(kubeconfig, context);
    }

    /**
     * The rules for manifests: every resource must resolve, and peering is provided for unless
     * {@code --standalone}.
     *
     * @param catalog resolves the handlers' resources, e.g. {@code ApiCatalog.live(client)} or an offline one
     * @param operatorNamespace where the operator runs: its Leases, and the Events of cluster-scoped objects
     * @return the rules the operator needs, required and optional ones
     * @throws OperatorException naming the handler and its resource, if one cannot be resolved
     */
    public List<Rule> rules(ApiCatalog catalog, String operatorNamespace) {
        return RequiredPermissions.derive(registry, settings,
                new RequiredPermissions.Scope(choices.namespaces(), operatorNamespace, operatorNamespace, true, true), catalog);
    }

    /**
     * The preflight's check, as the operator would run it at start-up: for the client's own user, or
     * for another one ({@code system:serviceaccount:NAMESPACE:NAME}: its Leases and cluster-scoped
     * objects' Events are then in that namespace).
     *
     * @param client the client whose API server reviews the access
     * @param user the user to check for, or null for the client's own
     * @return the permissions not granted
     * @throws InterruptedException if the thread is interrupted while the reviews run
     */
    public Preflight.Outcome check(KubernetesClient client, String user) throws InterruptedException {
        ApiRetries retries = ApiRetries.of(settings).busyServerOnly();
        String[] parts = user == null ? new String[0] : user.split(":");
        String namespace = parts.length == 4 && user.startsWith("system:serviceaccount:") ? parts[2] : null;
        RequiredPermissions.Scope scope = namespace == null ? Preflight.runtimeScope(client, choices.namespaces())
                : new RequiredPermissions.Scope(choices.namespaces(), namespace, namespace, false, false);
        AccessReview review = user == null ? AccessReview.self(client, retries)
                : AccessReview.of(client, retries, user, AccessReview.serviceAccountGroups(user));
        return Preflight.check(RequiredPermissions.derive(registry, settings, scope, ApiCatalog.live(client, retries)), review::allowed);
    }
}
