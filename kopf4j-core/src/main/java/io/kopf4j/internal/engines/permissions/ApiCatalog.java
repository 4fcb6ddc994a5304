package io.kopf4j.internal.engines.permissions;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorException;
import io.kopf4j.Resource;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.clients.Discovery;
import io.kopf4j.internal.intents.ResourceSelector;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the operator's resources are resolved (group, version, plural, scope, subresources) to
 * derive its permissions: the API server's discovery when a cluster is at hand, or the CRD files
 * and Kubernetes' built-in resources without one ({@link OfflineCatalog}).
 *
 * <pre>{@code
 * ApiCatalog catalog = ApiCatalog.live(client, ApiRetries.NONE);
 * List<Resource> apps = catalog.resources(Set.of("apps"));
 * }</pre>
 */
public interface ApiCatalog {
    /**
     * Every resource of these groups ({@code null}: of all groups; the empty string is the core group).
     *
     * @param groups the API groups, e.g. {@code Set.of("apps", "")}; null for all groups
     * @return the resources served in them, with their versions, scopes and subresources
     */
    List<Resource> resources(Set<String> groups);

    /** {@return what makes an unknown resource known, for the error that names it} */
    String remedy();

    /**
     * The one resource a name selects, as kubectl resolves it: a plural, singular, kind or short
     * name, optionally group-qualified ({@code pvc}, {@code kopfexamples.kopf.dev},
     * {@code deployments.v1.apps}); the core group wins, as with kubectl.
     *
     * <pre>{@code
     * Resource claims = ApiCatalog.live(client).resolve("pvc");   // persistentvolumeclaims.v1
     * }</pre>
     *
     * @param name the selector, e.g. {@code "pvc"} or {@code "kopfexamples.kopf.dev"}
     * @return the resource selected
     * @throws OperatorException naming the resource if it selects none, several groups, or many resources
     */
    default Resource resolve(String name) {
        ResourceSelector selector;
        try {
            selector = ResourceSelector.parse(name);
        } catch (IllegalArgumentException e) {
            throw new OperatorException("resource " + name + ": " + e.getMessage(), e);
        }
        if (selector.multiple()) {
            throw new OperatorException("resource " + name + " selects many resources; name one");
        }
        List<Resource> served = resources(selector.groupsToDiscover());
        ResourceSelector.Resolution resolution = selector.resolve(served);
        if (resolution.resources().isEmpty() && selector.version() == null) {
            resolution = servedOnlyInOtherVersions(selector, served);
        }
        if (resolution.ambiguous()) {
            throw new OperatorException("resource " + name + " is ambiguous, it matches " + resolution.resources()
                    + "; name the group");
        }
        if (resolution.resources().isEmpty()) {
            throw new OperatorException("resource " + name + " cannot be resolved: " + remedy());
        }
        return resolution.resources().getFirst();
    }

    /**
     * kubectl's fallback for a resource that the group's preferred version does not serve (CronJobs
     * before Kubernetes 1.21: batch/v1 is preferred, CronJobs are only in batch/v1beta1): its
     * version of the highest priority, GA before beta before alpha, the higher number first.
     */
    private static ResourceSelector.Resolution servedOnlyInOtherVersions(ResourceSelector selector, List<Resource> served) {
        return served.stream().map(Resource::version).distinct().sorted(ApiCatalog::byPriority)
                .map(version -> new ResourceSelector(selector.group(), version, selector.name()).resolve(served))
                .filter(found -> !found.resources().isEmpty()).findFirst()
                .orElse(new ResourceSelector.Resolution(List.of(), false));
    }

    /** Kubernetes' version priority: v1 before v1beta2 before v1beta1 before v1alpha1. */
    private static int byPriority(String a, String b) {
        return Integer.compare(priority(b), priority(a));
    }

    private static int priority(String version) {
        Matcher parts = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?").matcher(version);
        if (!parts.matches()) {
            return 0;
        }
        int stability = parts.group(2) == null ? 3 : "beta".equals(parts.group(2)) ? 2 : 1;
        return stability * 1_000_000 + Integer.parseInt(parts.group(1)) * 1_000 + (parts.group(3) == null ? 0
                : Integer.parseInt(parts.group(3)));
    }

    /**
     * The API server's discovery, each request once.
     *
     * @param client the client whose API server is asked
     * @return a catalog of the API server's resources, never retrying a failed request
     */
    static ApiCatalog live(KubernetesClient client) {
        return live(client, ApiRetries.NONE);
    }

    /**
     * The API server's discovery, as the operator resolves its handlers' resources when it runs.
     *
     * @param client the client whose API server is asked
     * @param retries how failed discovery requests are retried, e.g. {@code ApiRetries.NONE}
     * @return a catalog of the API server's resources
     */
    static ApiCatalog live(KubernetesClient client, ApiRetries retries) {
        Discovery discovery = new Discovery(client, retries);
        return new ApiCatalog() {
            @Override
            public List<Resource> resources(Set<String> groups) {
                return discovery.resources(groups);
            }

            @Override
            public String remedy() {
                return "apply its CRD to the cluster at " + client.getMasterUrl() + ", or name the group";
            }
        };
    }
}
