package io.kopf4j.envtest;

/**
 * One request to a {@link LocalCluster}'s API server, as its audit log recorded it: who asked for what
 * and what was answered. {@link LocalCluster#apiCalls(String)} lists them, to hold what an operator
 * really does against the RBAC it is given ({@link RbacGrants}).
 *
 * <pre>{@code
 * List<ApiCall> calls = cluster.apiCalls("system:serviceaccount:operators:my-operator");
 * calls.forEach(System.out::println);   // patch kopf.dev/kopfexamples in default -> 200
 * }</pre>
 *
 * @param verb {@code get}, {@code list}, {@code watch}, {@code create}, {@code patch}, {@code update}, {@code delete}, ...
 * @param group the API group, empty for the core group; null for a non-resource request (discovery: {@code /apis})
 * @param resource the resource's plural, with {@code /subresource} if any ({@code kopfexamples/status}); the
 *                 path for a non-resource request
 * @param namespace the namespace, or null for a cluster-scoped resource or a request across namespaces
 * @param code the HTTP status answered
 */
public record ApiCall(String verb, String group, String resource, String namespace, int code) {
    /** {@return whether it is a non-resource request (discovery, {@code /version}, {@code /metrics})} */
    public boolean nonResource() {
        return group == null;
    }

    @Override
    public String toString() {
        return verb + " " + (nonResource() ? resource : (group.isEmpty() ? "" : group + "/") + resource
                + (namespace == null ? "" : " in " + namespace)) + " -> " + code;
    }
}
