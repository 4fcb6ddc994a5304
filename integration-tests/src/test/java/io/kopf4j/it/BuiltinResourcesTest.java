package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Resource;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.internal.clients.Discovery;
import io.kopf4j.internal.engines.permissions.OfflineCatalog;
import io.kopf4j.internal.structs.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The table of Kubernetes' built-in resources that {@code kopf4j manifests} resolves handlers'
 * resources with, without a cluster, is what a real kube-apiserver's discovery says: so that it
 * cannot rot. To record it again (a new Kubernetes version of the local cluster):
 * {@code -Dkopf4j.builtins.record=kopf4j-core/src/main/resources/io/kopf4j/internal/engines/permissions/builtin-resources.json}.
 */
@ExtendWith(LocalClusterExtension.class)
class BuiltinResourcesTest {
    @Test
    void theRecordedTableIsTheLiveDiscoveryOfTheBuiltInResources(LocalCluster cluster) throws IOException {
        List<Resource> live = new Discovery(cluster.client()).resources(null).stream()
                // Built-in groups have no dot (apps, batch) or end with .k8s.io; CRDs' groups must have a dot.
                .filter(r -> !r.group().contains(".") || r.group().endsWith(".k8s.io"))
                .toList();
        String record = System.getProperty("kopf4j.builtins.record");
        if (record != null) {
            Files.writeString(Path.of(record), Json.mapper().writerWithDefaultPrettyPrinter()
                    .writeValueAsString(live.stream().map(BuiltinResourcesTest::row).toList()) + "\n");
        }
        assertThat(OfflineCatalog.builtins()).containsExactlyInAnyOrderElementsOf(live);
    }

    private static Map<String, Object> row(Resource resource) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("group", resource.group());
        row.put("version", resource.version());
        row.put("plural", resource.plural());
        row.put("kind", resource.kind());
        row.put("singular", resource.singular());
        row.put("shortNames", resource.shortNames());
        row.put("categories", resource.categories());
        row.put("subresources", resource.subresources());
        row.put("namespaced", resource.namespaced());
        row.put("preferred", resource.preferred());
        row.put("verbs", resource.verbs());
        return row;
    }
}
