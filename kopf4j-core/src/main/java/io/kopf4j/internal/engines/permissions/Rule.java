package io.kopf4j.internal.engines.permissions;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One permission the operator needs: verbs on one resource (or subresource), in one namespace or
 * cluster-wide, with the reasons, which become the rule's comments in {@code kopf4j manifests}
 * and name the feature in the preflight's error.
 *
 * <pre>{@code
 * new Rule("kopf.dev", "kopfexamples/status", Set.of("patch"), "default", false,
 *         List.of("handler 'create_fn': its results and progress in the status"));
 * rule.render()   // {apiGroups: [kopf.dev], resources: [kopfexamples/status], verbs: [patch]}
 * }</pre>
 *
 * @param group the API group, empty for the core one
 * @param resource the plural name, or {@code plural/subresource}
 * @param verbs the verbs, sorted
 * @param namespace the namespace (a Role there), or null: cluster-wide (a ClusterRole)
 * @param optional whether the operator runs without it, with a feature lost (posting Events):
 *                 the preflight warns instead of failing
 * @param reasons what needs it, each once
 */
public record Rule(String group, String resource, Set<String> verbs, String namespace, boolean optional,
                   List<String> reasons) {
    /**
     * Sorts the verbs and keeps each reason once.
     *
     * @throws IllegalArgumentException if the resource or a verb is a wildcard, or there are no verbs
     */
    public Rule {
        if (verbs.isEmpty() || verbs.stream().anyMatch(verb -> verb.contains("*")) || resource.contains("*")) {
            throw new IllegalArgumentException("a rule names its resource and verbs without wildcards: " + resource + " " + verbs);
        }
        verbs = java.util.Collections.unmodifiableSet(new TreeSet<>(verbs));
        reasons = List.copyOf(new LinkedHashSet<>(reasons));
    }

    /**
     * The reasons, those that need it for the same thing together, for comments and messages:
     * {@code handler 'create', handler 'update': watching its objects} rather than a line each.
     * A reason reads {@code <who>: <what for>}; one without a colon stands alone.
     *
     * @return e.g. {@code ["handler 'create', handler 'update': watching its objects"]}
     */
    public List<String> summary() {
        Map<String, List<String>> whoByWhat = new LinkedHashMap<>();
        for (String reason : reasons) {
            int colon = reason.indexOf(": ");
            String what = colon < 0 ? reason : reason.substring(colon + 2);
            List<String> who = whoByWhat.computeIfAbsent(what, key -> new ArrayList<>());
            if (colon >= 0) {
                who.add(reason.substring(0, colon));
            }
        }
        List<String> summary = new ArrayList<>();
        whoByWhat.forEach((what, who) -> summary.add(who.isEmpty() ? what : String.join(", ", who) + ": " + what));
        return summary;
    }

    /** {@return true if it belongs in a ClusterRole} */
    public boolean clusterWide() {
        return namespace == null;
    }

    /** {@return the resource without its subresource} */
    public String plural() {
        int slash = resource.indexOf('/');
        return slash < 0 ? resource : resource.substring(0, slash);
    }

    /** {@return the subresource, or null} */
    public String subresource() {
        int slash = resource.indexOf('/');
        return slash < 0 ? null : resource.substring(slash + 1);
    }

    /** {@return the rule as RBAC writes it, in YAML's flow style} */
    public String render() {
        return "{apiGroups: [" + (group.isEmpty() ? "\"\"" : group) + "], resources: [" + resource + "], verbs: ["
                + String.join(", ", verbs) + "]}";
    }

    /** {@return where it applies, for messages: {@code in namespace 'default'} or {@code cluster-wide}} */
    public String where() {
        return namespace == null ? "cluster-wide" : "in namespace '" + namespace + "'";
    }

    /**
     * The rules with the same group, resource, namespace and optionality as one, with every verb and
     * every reason; in the order of their first appearance.
     *
     * @param rules the rules, in any order; duplicates allowed
     * @return new rules, each group, resource, namespace and optionality once
     */
    public static List<Rule> merge(Collection<Rule> rules) {
        Map<List<Object>, Rule> merged = new LinkedHashMap<>();
        for (Rule rule : rules) {
            merged.merge(java.util.Arrays.asList(rule.group, rule.resource, rule.namespace, rule.optional), rule, (a, b) -> {
                Set<String> verbs = new TreeSet<>(a.verbs);
                verbs.addAll(b.verbs);
                List<String> reasons = new ArrayList<>(a.reasons);
                reasons.addAll(b.reasons);
                return new Rule(a.group, a.resource, verbs, a.namespace, a.optional, reasons);
            });
        }
        return List.copyOf(merged.values());
    }
}
