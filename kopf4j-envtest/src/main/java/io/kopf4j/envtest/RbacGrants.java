package io.kopf4j.envtest;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The grants of Roles and ClusterRoles, each verb of each resource one, held against the requests
 * an API server recorded ({@link LocalCluster#apiCalls(String)}): which requests no grant allows,
 * and which grants no request used. For testing an operator's RBAC against what it really does.
 *
 * <pre>{@code
 * RbacGrants grants = RbacGrants.of(cluster.client().load(Files.newInputStream(rbacYaml)).items());
 * List<ApiCall> calls = cluster.apiCalls("system:serviceaccount:operators:my-operator");
 * assertThat(grants.notAllowed(calls)).isEmpty();   // it did nothing beyond its rules
 * assertThat(grants.unused(calls)).isEmpty();       // and was given nothing it did not use
 * }</pre>
 */
public final class RbacGrants {
    /**
     * What every authenticated user may do by the API server's default ClusterRoles (system:basic-user,
     * system:discovery, system:public-info-viewer): no rule of the operator's is needed for it.
     */
    private static final Set<String> GRANTED_TO_EVERYONE = Set.of("authorization.k8s.io/selfsubjectaccessreviews",
            "authorization.k8s.io/selfsubjectrulesreviews");

    /**
     * One verb on one resource (or subresource, or non-resource URL) of a group, in a namespace (a
     * Role's) or anywhere (a ClusterRole's).
     *
     * @param group the API group; null for a non-resource URL
     * @param resource the resource's plural, with {@code /subresource} if any; or the non-resource URL
     * @param verb the verb, e.g. {@code patch}
     * @param namespace the Role's namespace, or null for a ClusterRole's grant
     */
    public record Grant(String group, String resource, String verb, String namespace) {
        /**
         * {@return whether this grant allows the request, or one of the verbs it needs}
         *
         * @param call the request
         */
        public boolean allows(ApiCall call) {
            return verbsOf(call).stream().anyMatch(needed -> allows(call, needed));
        }

        private boolean allows(ApiCall call, String needed) {
            if (group == null || call.nonResource()) {
                return group == null && call.nonResource() && resource.equals(call.resource()) && verb.equals(needed);
            }
            return group.equals(call.group()) && resource.equals(call.resource()) && verb.equals(needed)
                    && (namespace == null || namespace.equals(call.namespace()));
        }

        @Override
        public String toString() {
            return verb + " " + (group == null || group.isEmpty() ? "" : group + "/") + resource
                    + (namespace == null ? " (cluster-wide)" : " in " + namespace);
        }
    }

    private final List<Grant> grants;

    private RbacGrants(List<Grant> grants) {
        this.grants = List.copyOf(grants);
    }

    /**
     * The grants of the Roles and ClusterRoles among these objects (the others are left out).
     *
     * @param objects e.g. {@code client.load(stream).items()} of generated manifests
     * @return their grants
     */
    public static RbacGrants of(Collection<? extends HasMetadata> objects) {
        List<Grant> grants = new ArrayList<>();
        for (HasMetadata object : objects) {
            if (object instanceof Role role) {
                role.getRules().forEach(rule -> add(rule, role.getMetadata().getNamespace(), grants));
            } else if (object instanceof ClusterRole role) {
                role.getRules().forEach(rule -> add(rule, null, grants));
            }
        }
        return new RbacGrants(grants);
    }

    /**
     * The grants that these objects' RoleBindings and ClusterRoleBindings give a ServiceAccount,
     * through the Roles and ClusterRoles among the objects: what an operator runs with, leaving out
     * a role that is there for others to be bound to (the scraper's metrics-reader).
     *
     * @param objects e.g. the documents of {@code kopf4j manifests}
     * @param namespace the ServiceAccount's namespace
     * @param name the ServiceAccount's name
     * @return the grants bound to it
     */
    public static RbacGrants boundTo(Collection<? extends HasMetadata> objects, String namespace, String name) {
        Set<String> bound = new java.util.HashSet<>();
        for (HasMetadata object : objects) {
            if (object instanceof RoleBinding binding && "Role".equals(binding.getRoleRef().getKind())
                    && binds(binding.getSubjects(), namespace, name)) {
                bound.add("Role " + binding.getMetadata().getNamespace() + "/" + binding.getRoleRef().getName());
            } else if (object instanceof ClusterRoleBinding binding && binds(binding.getSubjects(), namespace, name)) {
                bound.add("ClusterRole " + binding.getRoleRef().getName());
            }
        }
        return of(objects.stream().filter(object -> object instanceof Role
                        ? bound.contains("Role " + object.getMetadata().getNamespace() + "/" + object.getMetadata().getName())
                        : object instanceof ClusterRole && bound.contains("ClusterRole " + object.getMetadata().getName()))
                .toList());
    }

    /**
     * The grants that the RBAC in these YAML files gives a ServiceAccount (the Roles, ClusterRoles
     * and bindings among their documents; others are skipped), as {@link #boundTo(Collection, String, String)}.
     *
     * @param client parses the documents, e.g. {@code cluster.client()}
     * @param files e.g. the {@code role.yaml}, {@code cluster-role.yaml} and their bindings of {@code kopf4j manifests -o DIR}
     * @param namespace the ServiceAccount's namespace
     * @param name the ServiceAccount's name
     * @return the grants bound to it
     */
    public static RbacGrants boundTo(KubernetesClient client, Collection<Path> files, String namespace, String name) {
        List<HasMetadata> objects = new ArrayList<>();
        for (Path file : files) {
            try (InputStream in = Files.newInputStream(file)) {
                objects.addAll(client.load(in).items());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        return boundTo(objects, namespace, name);
    }

    /**
     * What differs between the requests and the grants: the requests no grant allows (a 403 among
     * them), and the grants no request used but for those that may be unused; one line each.
     *
     * @param calls the requests, e.g. of {@link LocalCluster#apiCalls(String)}
     * @param mayBeUnused the grants that a run may leave unused, as {@link Grant#toString()} writes them
     * @return the differences, empty if the requests and the grants match
     */
    public List<String> differences(List<ApiCall> calls, Collection<String> mayBeUnused) {
        List<String> differences = new ArrayList<>();
        notAllowed(calls).forEach(call -> differences.add("not allowed by the grants: " + call));
        unused(calls).stream().map(Grant::toString).filter(grant -> !mayBeUnused.contains(grant))
                .forEach(grant -> differences.add("granted but not used: " + grant));
        return differences;
    }

    /**
     * This user's requests once the audit log shows them matching the grants ({@link
     * #differences} empty), read again every 200 ms for up to {@code lag}; after that, the requests
     * as they are, for the caller's assertion to name what differs. The API server logs a watch when
     * it ends, which for an operator is its stop: the line can come a moment after the stop.
     *
     * <pre>{@code
     * runner.close();   // the operator stops; its watches end
     * List<ApiCall> calls = grants.settledCalls(cluster, user, List.of(), Duration.ofSeconds(10));
     * assertThat(grants.differences(calls, List.of())).isEmpty();
     * }</pre>
     *
     * @param cluster the cluster whose audit log holds the requests
     * @param user the user name, e.g. {@code system:serviceaccount:NAMESPACE:NAME}
     * @param mayBeUnused the grants that a run may leave unused, as for {@link #differences}
     * @param lag how long the log may take to show the last requests
     * @return the requests, as {@link LocalCluster#apiCalls(String)} lists them
     */
    public List<ApiCall> settledCalls(LocalCluster cluster, String user, Collection<String> mayBeUnused, Duration lag) {
        long deadline = System.nanoTime() + lag.toNanos();
        List<ApiCall> calls = cluster.apiCalls(user);
        while (!differences(calls, mayBeUnused).isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return calls;
            }
            calls = cluster.apiCalls(user);
        }
        return calls;
    }

    private static boolean binds(List<Subject> subjects, String namespace, String name) {
        return subjects.stream().anyMatch(subject -> "ServiceAccount".equals(subject.getKind()) && name.equals(subject.getName())
                && namespace.equals(subject.getNamespace()));
    }

    private static void add(PolicyRule rule, String namespace, List<Grant> grants) {
        for (String verb : rule.getVerbs()) {
            for (String url : rule.getNonResourceURLs()) {
                grants.add(new Grant(null, url, verb, null));
            }
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    grants.add(new Grant(group, resource, verb, namespace));
                }
            }
        }
    }

    /** {@return every grant, each verb of each resource and namespace one} */
    public List<Grant> grants() {
        return grants;
    }

    /**
     * {@return the resource requests that the grants do not allow}, leaving out what every
     * authenticated user may do (discovery, self-reviews of access), and so also every request that
     * was refused (403)
     *
     * @param calls the requests, e.g. of {@link LocalCluster#apiCalls(String)}
     */
    public List<ApiCall> notAllowed(List<ApiCall> calls) {
        return calls.stream().filter(call -> !call.nonResource())
                .filter(call -> !GRANTED_TO_EVERYONE.contains(call.group() + "/" + call.resource()))
                .filter(call -> verbsOf(call).stream().anyMatch(needed -> grants.stream().noneMatch(grant -> grant.allows(call, needed))))
                .toList();
    }

    /**
     * The verbs a request needs: its own; a {@code patch} answered 201 (a server-side apply that
     * created the object) needs {@code create} too, which the API server checks inside the request, so
     * that its audit log records the {@code patch} alone.
     */
    private static List<String> verbsOf(ApiCall call) {
        return "patch".equals(call.verb()) && call.code() == 201 ? List.of("patch", "create") : List.of(call.verb());
    }

    /**
     * {@return the grants that no request used}
     *
     * @param calls the requests, e.g. of {@link LocalCluster#apiCalls(String)}
     */
    public List<Grant> unused(List<ApiCall> calls) {
        return grants.stream().filter(grant -> calls.stream().noneMatch(grant::allows)).toList();
    }
}
