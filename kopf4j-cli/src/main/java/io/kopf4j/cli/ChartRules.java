package io.kopf4j.cli;

import io.kopf4j.internal.engines.permissions.ApiCatalog;
import io.kopf4j.internal.engines.permissions.Rule;
import io.kopf4j.internal.loading.OperatorPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The operator's RBAC rules for every value of its Helm chart that changes them, as the named
 * templates of the chart's {@code templates/_rules.tpl}. The rules are derived as {@code kopf4j
 * manifests} derives them, once for each way {@code .Values.namespaces} serves namespaces (none: all
 * of them; names; patterns), with and without leader election and secure metrics: a rule that only one
 * of those needs is written under its {@code if}. The namespaces that only the values and the release
 * know are derived as stand-ins, and each template holds the rules of one place: the ClusterRole, a
 * Role in each served namespace, a Role in the release's namespace (the Leases, the Events of
 * cluster-scoped objects), or a Role in a namespace the options name ({@code --leader-election-namespace}).
 *
 * <pre>{@code
 * ChartRules rules = ChartRules.derive("my-operator", plan, catalog, ".Values.leaderElection.enabled", ".Values.metrics.secure");
 * rules.template(Scope.NAMES, ChartRules.SERVED)   // my-operator.rules.names.served
 * String templates = rules.templates();            // templates/_rules.tpl
 * }</pre>
 */
final class ChartRules {
    /** The place of the ClusterRole's rules. */
    static final String CLUSTER = "cluster";
    /** The place of the rules of a Role in each served namespace. */
    static final String SERVED = "served";
    /** The place of the rules of a Role in the release's namespace, the operator's. */
    static final String RELEASE = "release";

    /** Stand-ins of the namespaces that the values and the release name: names no one gives a namespace. */
    private static final String SERVED_NAMESPACE = "kopf4j-chart-served";
    private static final String RELEASE_NAMESPACE = "kopf4j-chart-release";
    private static final String PATTERN = "kopf4j-chart-*";

    /** How {@code .Values.namespaces} serves namespaces, as the chart's {@code namespaceScope} helper names it. */
    enum Scope {
        /** No namespaces: all of them, cluster-wide. */
        ALL(List.of()),
        /** Names only: a Role in each. */
        NAMES(List.of(SERVED_NAMESPACE)),
        /** Any glob, comma list or negation: cluster-wide, and the namespaces watched as they come and go. */
        PATTERNS(List.of(PATTERN));

        private final List<String> standIns;

        Scope(List<String> standIns) {
            this.standIns = standIns;
        }

        /** {@return the scope as the chart's templates name it: all, names, patterns} */
        String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** A rule, and the template condition it is written under; null: always. */
    private record Conditional(Rule rule, String condition) {
    }

    private final String chart;
    private final Map<Scope, List<Conditional>> rules;

    private ChartRules(String chart, Map<Scope, List<Conditional>> rules) {
        this.chart = chart;
        this.rules = rules;
    }

    /**
     * Derives the rules for each scope, leader election and secure metrics.
     *
     * @param chart the chart's name, the prefix of its templates' names
     * @param plan the operator as the options make it
     * @param catalog resolves the handlers' resources
     * @param leaderElection the template condition of leader election, e.g. {@code $.Values.leaderElection.enabled}
     * @param metricsSecure the template condition of secure metrics, e.g. {@code $.Values.metrics.secure}
     * @return the rules of every scope, each under its condition
     * @throws IllegalStateException if leader election or secure metrics took a rule away, or their rules
     *         together were not those of each: no condition on a rule could say that
     */
    static ChartRules derive(String chart, OperatorPlan plan, ApiCatalog catalog, String leaderElection, String metricsSecure) {
        Map<Scope, List<Conditional>> rules = new LinkedHashMap<>();
        for (Scope scope : Scope.values()) {
            List<Rule> base = derive(plan, catalog, scope, false, false);
            List<Rule> leader = added(base, derive(plan, catalog, scope, true, false), "leader election");
            List<Rule> secure = added(base, derive(plan, catalog, scope, false, true), "secure metrics");
            List<Rule> both = derive(plan, catalog, scope, true, true);
            List<Rule> apart = new ArrayList<>(base);
            apart.addAll(leader);
            apart.addAll(secure);
            if (!grants(both).equals(grants(apart))) {
                throw new IllegalStateException("the rules with leader election and secure metrics are not those of each: "
                        + grants(both) + " against " + grants(apart));
            }
            List<Conditional> conditional = new ArrayList<>();
            for (Rule rule : both) {   // in the order of the derivation, each part under its condition
                matching(base, rule).forEach(part -> conditional.add(new Conditional(part, null)));
                matching(leader, rule).forEach(part -> conditional.add(new Conditional(part, leaderElection)));
                matching(secure, rule).forEach(part -> conditional.add(new Conditional(part, metricsSecure)));
            }
            rules.put(scope, conditional);
        }
        return new ChartRules(chart, rules);
    }

    private static List<Rule> derive(OperatorPlan plan, ApiCatalog catalog, Scope scope, boolean leaderElection,
                                     boolean metricsSecure) {
        return plan.with(new OperatorPlan.Choices(scope.standIns, leaderElection, metricsSecure)).rules(catalog, RELEASE_NAMESPACE);
    }

    /** What the rules with a feature add to those without it: the verbs of each rule that were not there, with their reasons. */
    private static List<Rule> added(List<Rule> without, List<Rule> with, String feature) {
        List<Rule> added = new ArrayList<>();
        for (Rule rule : without) {
            if (matching(with, rule).stream().noneMatch(other -> other.verbs().containsAll(rule.verbs()))) {
                throw new IllegalStateException(feature + " takes away a rule, which the chart cannot say: " + rule.render());
            }
        }
        for (Rule rule : with) {
            List<Rule> before = matching(without, rule);
            Set<String> verbs = new TreeSet<>(rule.verbs());
            List<String> reasons = new ArrayList<>(rule.reasons());
            before.forEach(old -> {
                verbs.removeAll(old.verbs());
                reasons.removeAll(old.reasons());
            });
            if (!verbs.isEmpty()) {
                added.add(new Rule(rule.group(), rule.resource(), verbs, rule.namespace(), rule.optional(),
                        reasons.isEmpty() ? rule.reasons() : reasons));
            }
        }
        return added;
    }

    /** The rules of the same group, resource, namespace and optionality: one at most, as {@link Rule#merge} leaves them. */
    private static List<Rule> matching(List<Rule> rules, Rule rule) {
        return rules.stream().filter(other -> other.group().equals(rule.group()) && other.resource().equals(rule.resource())
                && Objects.equals(other.namespace(), rule.namespace()) && other.optional() == rule.optional()).toList();
    }

    /** Each verb of each rule, for comparing rules however they are merged. */
    private static Set<String> grants(List<Rule> rules) {
        return rules.stream().flatMap(rule -> rule.verbs().stream().map(verb -> String.join(" ", verb, rule.group(),
                rule.resource(), String.valueOf(rule.namespace()), String.valueOf(rule.optional()))))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** {@return the namespaces that the options name for a Role, e.g. with {@code --leader-election-namespace}} */
    Set<String> namedNamespaces() {
        Set<String> named = new TreeSet<>();
        rules.values().forEach(scoped -> scoped.forEach(conditional -> {
            String namespace = conditional.rule().namespace();
            if (namespace != null && !namespace.equals(SERVED_NAMESPACE) && !namespace.equals(RELEASE_NAMESPACE)) {
                named.add(namespace);
            }
        }));
        return named;
    }

    /**
     * {@return the name of the template with the rules of one scope and place}
     *
     * @param scope the scope, or null for the template expression of the scope that {@code $scope} holds
     * @param place {@link #CLUSTER}, {@link #SERVED}, {@link #RELEASE}, or a namespace of {@link #namedNamespaces}
     */
    String template(Scope scope, String place) {
        String placeKey = Set.of(CLUSTER, SERVED, RELEASE).contains(place) ? place : "in." + place;
        return chart + ".rules." + (scope == null ? "%s" : scope.key()) + "." + placeKey;
    }

    /** {@return the text of {@code templates/_rules.tpl}: a template for each scope and place, empty where no rule goes} */
    String templates() {
        StringBuilder text = new StringBuilder("""
                {{- /*
                Generated by kopf4j manifests --helm: the operator's RBAC rules, derived from its handlers and options for each
                value that changes them. CHART.rules.SCOPE.PLACE: SCOPE is how .Values.namespaces serves namespaces (all, names,
                patterns: CHART.namespaceScope), PLACE the role they go to (cluster: the ClusterRole; served: a Role in each
                served namespace; release: a Role in the release's namespace; in.NAMESPACE: a Role there).
                */}}
                """.replace("CHART", chart));
        List<String> places = new ArrayList<>(List.of(CLUSTER, SERVED, RELEASE));
        places.addAll(namedNamespaces());
        for (Scope scope : Scope.values()) {
            for (String place : places) {
                text.append("{{- define \"").append(template(scope, place)).append("\" }}");
                String open = null;   // the condition of the rules before, one if for the rules of a condition in a row
                for (Conditional conditional : rules.get(scope)) {
                    if (!place(conditional.rule()).equals(place)) {
                        continue;
                    }
                    if (!Objects.equals(conditional.condition(), open)) {
                        text.append(open == null ? "" : "\n{{- end }}")
                                .append(conditional.condition() == null ? "" : "\n{{- if " + conditional.condition() + " }}");
                        open = conditional.condition();
                    }
                    text.append('\n').append(rendered(conditional.rule()));
                }
                text.append(open == null ? "" : "\n{{- end }}").append("\n{{- end }}\n");
            }
        }
        return text.toString();
    }

    private static String place(Rule rule) {
        if (rule.namespace() == null) {
            return CLUSTER;
        }
        return switch (rule.namespace()) {
            case SERVED_NAMESPACE -> SERVED;
            case RELEASE_NAMESPACE -> RELEASE;
            default -> rule.namespace();
        };
    }

    /** The rule with its comments, the patterns of its reasons those of the values, without the last line's end. */
    private static String rendered(Rule rule) {
        String text = TemplateTokens.literal(Manifests.rules(List.of(rule))).stripTrailing()
                .replace(List.of(PATTERN).toString(), "[{{ join \", \" $.Values.namespaces }}]");
        if (Arrays.stream(new String[] {SERVED_NAMESPACE, RELEASE_NAMESPACE, PATTERN}).anyMatch(text::contains)) {
            throw new IllegalStateException("a stand-in namespace is left in the rule " + text);
        }
        return text;
    }
}
