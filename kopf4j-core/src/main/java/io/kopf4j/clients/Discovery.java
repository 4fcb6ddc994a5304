package io.kopf4j.clients;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads the resources the API server serves, through its discovery endpoints ({@code /api/v1},
 * {@code /apis}, {@code /apis/<group>/<version>}), as kubectl and Kopf do: nothing is hard-coded.
 */
public final class Discovery {
    private final KubernetesClient client;

    public Discovery(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Every resource of the given groups, in every served version ({@code null}: all groups; the
     * empty string is the core group). Subresources ({@code kopfexamples/status}) are not
     * resources of their own; they are listed in their parent's {@link Resource#subresources()}.
     */
    public List<Resource> resources(Set<String> groups) {
        try {
            List<Resource> resources = new ArrayList<>();
            if (groups == null || groups.contains("")) {
                resources.addAll(resourcesOf("", "v1", true));
            }
            for (APIGroup group : client.getApiGroups().getGroups()) {
                if (groups != null && !groups.contains(group.getName())) {
                    continue;
                }
                String preferred = group.getPreferredVersion() == null ? null : group.getPreferredVersion().getVersion();
                for (GroupVersionForDiscovery version : group.getVersions()) {
                    resources.addAll(resourcesOf(group.getName(), version.getVersion(),
                            Objects.equals(version.getVersion(), preferred)));
                }
            }
            return resources;
        } catch (KubernetesClientException e) {
            throw ApiErrors.describe("API discovery", client.getMasterUrl().toString(), e);
        }
    }

    private List<Resource> resourcesOf(String group, String version, boolean preferred) {
        APIResourceList list = client.getApiResources(group.isEmpty() ? version : group + "/" + version);
        if (list == null) {
            return List.of();   // the group version vanished between the two calls (a CRD deleted)
        }
        Map<String, APIResource> main = new TreeMap<>();
        Map<String, List<String>> subresources = new TreeMap<>();
        for (APIResource resource : list.getResources()) {
            String name = resource.getName();
            int slash = name.indexOf('/');
            if (slash < 0) {
                main.put(name, resource);
            } else {
                subresources.computeIfAbsent(name.substring(0, slash), k -> new ArrayList<>()).add(name.substring(slash + 1));
            }
        }
        List<Resource> resources = new ArrayList<>();
        main.forEach((plural, r) -> resources.add(new Resource(group, version, plural, r.getKind(),
                orEmpty(r.getSingularName()), orEmpty(r.getShortNames()), orEmpty(r.getCategories()),
                subresources.getOrDefault(plural, List.of()), Boolean.TRUE.equals(r.getNamespaced()),
                preferred, orEmpty(r.getVerbs()))));
        return resources;
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }

    private static List<String> orEmpty(List<String> value) {
        return value == null ? List.of() : value;
    }
}
