package io.kopf4j.it;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The RBAC rules of the manifests that {@code kopf4j manifests} writes (its Roles and ClusterRoles),
 * each verb of each resource one grant, held against the calls the API server recorded
 * ({@link ApiAudit}): which calls no grant allows, and which grants no call used.
 *
 * <pre>{@code
 * GeneratedRules rules = GeneratedRules.of(manifestsYaml);
 * rules.notAllowed(calls);   // empty: nothing was done beyond the rules
 * rules.unused(calls);       // empty: nothing was granted that was not used
 * }</pre>
 */
final class GeneratedRules {
    /**
     * What every authenticated user may do (the API server's default ClusterRoles system:basic-user,
     * system:discovery, system:public-info-viewer): no generated rule is needed for it.
     */
    private static final Set<String> GRANTED_TO_EVERYONE = Set.of("authorization.k8s.io/selfsubjectaccessreviews",
            "authorization.k8s.io/selfsubjectrulesreviews");

    /**
     * One verb on one resource (or subresource) of a group, in a namespace (a Role's) or anywhere (a ClusterRole's).
     *
     * @param namespace the Role's namespace, or null for a ClusterRole's grant
     */
    record Grant(String group, String resource, String verb, String namespace) {
        boolean allows(ApiAudit.Call call) {
            return !call.nonResource() && group.equals(call.group()) && resource.equals(call.resource())
                    && verb.equals(call.verb()) && (namespace == null || namespace.equals(call.namespace()));
        }

        @Override
        public String toString() {
            return verb + " " + (group.isEmpty() ? "" : group + "/") + resource + (namespace == null ? " (cluster-wide)" : " in " + namespace);
        }
    }

    private final List<Grant> grants;

    private GeneratedRules(List<Grant> grants) {
        this.grants = List.copyOf(grants);
    }

    /** The grants of the Roles and ClusterRoles in a stream of YAML documents (the other kinds are skipped). */
    @SuppressWarnings("unchecked")
    static GeneratedRules of(String manifests) {
        List<Grant> grants = new ArrayList<>();
        try (MappingIterator<Object> documents = new YAMLMapper().readerFor(Object.class).readValues(manifests)) {
            while (documents.hasNextValue()) {
                if (!(documents.nextValue() instanceof Map<?, ?> document)
                        || !Set.of("Role", "ClusterRole").contains(document.get("kind"))) {
                    continue;
                }
                String namespace = "Role".equals(document.get("kind"))
                        ? (String) ((Map<String, Object>) document.get("metadata")).get("namespace") : null;
                for (Map<String, Object> rule : (List<Map<String, Object>>) document.get("rules")) {
                    for (Object group : (List<Object>) rule.get("apiGroups")) {
                        for (Object resource : (List<Object>) rule.get("resources")) {
                            for (Object verb : (List<Object>) rule.get("verbs")) {
                                grants.add(new Grant(String.valueOf(group), String.valueOf(resource), String.valueOf(verb), namespace));
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new GeneratedRules(grants);
    }

    List<Grant> grants() {
        return grants;
    }

    /** The calls that no grant allows, leaving out discovery and what every authenticated user may do. */
    List<ApiAudit.Call> notAllowed(List<ApiAudit.Call> calls) {
        return calls.stream().filter(call -> !call.nonResource())
                .filter(call -> !GRANTED_TO_EVERYONE.contains(call.group() + "/" + call.resource()))
                .filter(call -> grants.stream().noneMatch(grant -> grant.allows(call)))
                .toList();
    }

    /** The grants that no call used. */
    List<Grant> unused(List<ApiAudit.Call> calls) {
        return grants.stream().filter(grant -> calls.stream().noneMatch(grant::allows)).toList();
    }
}
