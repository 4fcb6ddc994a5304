package io.kopf4j.internal.engines.permissions;

import com.fasterxml.jackson.core.type.TypeReference;
import io.kopf4j.OperatorException;
import io.kopf4j.Resource;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.structs.YamlFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The resources without a cluster: Kubernetes' built-in ones, as a real kube-apiserver's discovery
 * lists them (recorded in {@code builtin-resources.json}; a test compares it with a live one), and
 * those of the given CRD files.
 *
 * <pre>{@code
 * ApiCatalog catalog = OfflineCatalog.of(List.of(Path.of("crd.yaml")));
 * }</pre>
 */
public final class OfflineCatalog implements ApiCatalog {
    /** The recorded table, beside this class. */
    public static final String BUILTINS = "builtin-resources.json";
    private static final List<String> CRD_VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch",
            "update", "watch");

    private final List<Resource> resources;

    private OfflineCatalog(List<Resource> resources) {
        this.resources = List.copyOf(resources);
    }

    /**
     * The built-in resources and the CRDs of these YAML files (other documents in them are ignored).
     *
     * @param crdFiles YAML files with CustomResourceDefinitions, e.g. {@code Path.of("crd.yaml")}; may be empty
     * @return a catalog that asks no API server
     * @throws OperatorException naming a file that cannot be read
     */
    public static OfflineCatalog of(List<Path> crdFiles) {
        List<Resource> resources = new ArrayList<>(builtins());
        for (Path file : crdFiles) {
            resources.addAll(crds(file));
        }
        return new OfflineCatalog(resources);
    }

    /** {@return Kubernetes' built-in resources, as recorded} */
    public static List<Resource> builtins() {
        try (InputStream table = OfflineCatalog.class.getResourceAsStream(BUILTINS)) {
            if (table == null) {
                throw new IllegalStateException(BUILTINS + " is missing from kopf4j-core");
            }
            List<Map<String, Object>> rows = Json.mapper().readValue(table, new TypeReference<>() {
            });
            return rows.stream().map(OfflineCatalog::resource).toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + BUILTINS + ": " + e.getMessage(), e);
        }
    }

    /**
     * The resources of the CRDs in one YAML file, one per served version.
     *
     * @param file a YAML file of one or many documents
     * @return the resources, none if the file has no CRD
     * @throws OperatorException naming the file if it cannot be read
     */
    public static List<Resource> crds(Path file) {
        List<Resource> resources = new ArrayList<>();
        List<Map<String, Object>> documents;
        try {
            documents = YamlFiles.objects(file);
        } catch (IllegalArgumentException e) {
            throw new OperatorException(e.getMessage(), e);
        }
        for (Map<String, Object> document : documents) {
            if ("CustomResourceDefinition".equals(document.get("kind"))) {
                try {
                    resources.addAll(crd(document));
                } catch (RuntimeException e) {
                    throw new OperatorException(file + ": the CustomResourceDefinition " + nameOf(document)
                            + " lacks spec.group, spec.names or spec.versions as apiextensions.k8s.io/v1 has them", e);
                }
            }
        }
        return resources;
    }

    private static String nameOf(Map<String, Object> document) {
        return document.get("metadata") instanceof Map<?, ?> metadata && metadata.get("name") instanceof String name
                ? "'" + name + "'" : "without a name";
    }

    @SuppressWarnings("unchecked")
    private static List<Resource> crd(Map<String, Object> crd) {
        Map<String, Object> spec = (Map<String, Object>) crd.get("spec");
        Map<String, Object> names = (Map<String, Object>) spec.get("names");
        List<Resource> resources = new ArrayList<>();
        for (Object item : (List<Object>) spec.getOrDefault("versions", List.of())) {
            Map<String, Object> version = (Map<String, Object>) item;
            if (Boolean.FALSE.equals(version.get("served"))) {
                continue;
            }
            boolean status = version.get("subresources") instanceof Map<?, ?> subresources && subresources.containsKey("status");
            resources.add(new Resource((String) spec.get("group"), (String) version.get("name"), (String) names.get("plural"),
                    (String) names.get("kind"), String.valueOf(names.getOrDefault("singular", "")),
                    strings(names.get("shortNames")), strings(names.get("categories")),
                    status ? List.of("status") : List.of(), "Namespaced".equals(spec.get("scope")),
                    Boolean.TRUE.equals(version.get("storage")), CRD_VERBS));
        }
        return resources;
    }

    private static Resource resource(Map<String, Object> row) {
        return new Resource((String) row.get("group"), (String) row.get("version"), (String) row.get("plural"),
                (String) row.get("kind"), (String) row.get("singular"), strings(row.get("shortNames")),
                strings(row.get("categories")), strings(row.get("subresources")), Boolean.TRUE.equals(row.get("namespaced")),
                Boolean.TRUE.equals(row.get("preferred")), strings(row.get("verbs")));
    }

    private static List<String> strings(Object list) {
        return list instanceof List<?> items ? items.stream().map(String::valueOf).toList() : List.of();
    }

    @Override
    public List<Resource> resources(Set<String> groups) {
        return resources.stream().filter(r -> groups == null || groups.contains(r.group())).toList();
    }

    @Override
    public String remedy() {
        return "pass its CRD with --crd FILE, or name a cluster to discover it with --kubeconfig";
    }
}
