package io.kopf4j.internal.clients;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the resources the API server serves, through its discovery endpoints ({@code /api/v1},
 * {@code /apis}, {@code /apis/<group>/<version>}), as kubectl and Kopf do: nothing is hard-coded.
 * The answers are read as maps over {@link ApiRequest}, not as fabric8's discovery models: at
 * start-up, each fabric8 model type read costs its classes' loading (see ApiRequest). Each
 * request is retried as the given {@link ApiRetries} say.
 */
public final class Discovery {
    private static final Logger LOG = LoggerFactory.getLogger(Discovery.class);
    /** Group versions read at once: see {@link #readAll}. */
    private static final int CONCURRENT_READS = 8;

    private final KubernetesClient client;
    private final ApiRetries retries;

    /** Discovery without retries: a failure is reported at once. */
    public Discovery(KubernetesClient client) {
        this(client, ApiRetries.NONE);
    }

    public Discovery(KubernetesClient client, ApiRetries retries) {
        this.client = client;
        this.retries = retries;
    }

    /**
     * Every resource of the given groups, in every served version ({@code null}: all groups; the
     * empty string is the core group). Subresources ({@code kopfexamples/status}) are not
     * resources of their own; they are listed in their parent's {@link Resource#subresources()}.
     */
    public List<Resource> resources(Set<String> groups) {
        try {
            List<Callable<List<Resource>>> reads = new ArrayList<>();
            if (groups == null || groups.contains("")) {
                reads.add(() -> resourcesOf("", "v1", true));
            }
            for (Map<?, ?> group : maps(get("/apis").get("groups"))) {
                String name = (String) group.get("name");
                if (groups != null && !groups.contains(name)) {
                    continue;
                }
                Object preferred = group.get("preferredVersion") instanceof Map<?, ?> version ? version.get("version") : null;
                for (Map<?, ?> version : maps(group.get("versions"))) {
                    String served = (String) version.get("version");
                    reads.add(() -> resourcesOf(name, served, Objects.equals(served, preferred)));
                }
            }
            return readAll(reads);
        } catch (KubernetesClientException e) {
            throw ApiErrors.describe("API discovery", client.getMasterUrl().toString(), e);
        }
    }

    /**
     * The group versions' reads, {@value #CONCURRENT_READS} at a time, their resources in the order
     * of the reads (the discovery order, which decides ties in name resolution). A cluster serves
     * some 50 group versions: one after the other, they cost 50 round trips (0.4 s on a local
     * cluster, seconds on a remote one); Kopf reads them all at once.
     */
    private static List<Resource> readAll(List<Callable<List<Resource>>> reads) {
        try {
            List<Resource> resources = new ArrayList<>();
            ConcurrentRequests.inOrder(reads, CONCURRENT_READS).forEach(resources::addAll);
            return resources;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted while reading the API discovery", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure
                    : new KubernetesClientException("API discovery failed: " + e.getCause(), e.getCause());
        }
    }

    private Map<String, Object> get(String path) {
        return retries.get(ApiRequest.path(client, path), LOG);
    }

    private List<Resource> resourcesOf(String group, String version, boolean preferred) {
        Map<String, Object> list;
        try {
            list = get(group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version);
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return List.of();   // the group version vanished between the two calls (a CRD deleted)
            }
            throw e;
        }
        Map<String, Map<?, ?>> main = new TreeMap<>();
        Map<String, List<String>> subresources = new TreeMap<>();
        for (Map<?, ?> resource : maps(list.get("resources"))) {
            String name = (String) resource.get("name");
            int slash = name.indexOf('/');
            if (slash < 0) {
                main.put(name, resource);
            } else {
                subresources.computeIfAbsent(name.substring(0, slash), k -> new ArrayList<>()).add(name.substring(slash + 1));
            }
        }
        List<Resource> resources = new ArrayList<>();
        main.forEach((plural, r) -> resources.add(new Resource(group, version, plural, (String) r.get("kind"),
                orEmpty((String) r.get("singularName")), strings(r.get("shortNames")), strings(r.get("categories")),
                subresources.getOrDefault(plural, List.of()), Boolean.TRUE.equals(r.get("namespaced")),
                preferred, strings(r.get("verbs")))));
        return resources;
    }

    /** The maps in a JSON array (none if absent). */
    private static List<Map<?, ?>> maps(Object array) {
        List<Map<?, ?>> maps = new ArrayList<>();
        if (array instanceof List<?> items) {
            for (Object item : items) {
                if (item instanceof Map<?, ?> map) {
                    maps.add(map);
                }
            }
        }
        return maps;
    }

    /** The strings in a JSON array (none if absent). */
    private static List<String> strings(Object array) {
        return array instanceof List<?> items ? items.stream().map(String::valueOf).toList() : List.of();
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}
