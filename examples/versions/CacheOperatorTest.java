import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceConversion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kopf4j.cli.Main;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.ConversionTester;
import io.kopf4j.testing.KopfRunner;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs examples/versions as `kopf4j run` does, against a real API server and under the RBAC that
 * `kopf4j manifests` generates for it: the CRD's conversion set to the operator's webhook, a Cache
 * written by a v1alpha1 client handled as v1, read back in both versions, and an eviction policy
 * that v1alpha1 cannot hold surviving an edit made through v1alpha1. The conversions themselves are
 * also checked without a cluster, as a unit test of an operator would check them.
 */
@ExtendWith(LocalClusterExtension.class)
class CacheOperatorTest {
    private static final String OPERATOR = "versions/CacheOperator.java";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void anOldClientsCacheIsHandledAsV1AndKeepsWhatV1alpha1CannotHold(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        cluster.apply(Path.of("versions/crd.yaml"));
        KubernetesClient client = cluster.client();
        String ns = namespace.name();
        List<String> options = List.of("-v", "--standalone", "-n", ns);
        Path kubeconfig = GeneratedRbac.kubeconfig(cluster, ns, List.of("-v", "--standalone", "-n", ns, "--crd",
                "versions/crd.yaml"), OPERATOR);
        var v1 = client.genericKubernetesResources("kopf4j.dev/v1", "Cache").inNamespace(ns);
        var v1alpha1 = client.genericKubernetesResources("kopf4j.dev/v1alpha1", "Cache").inNamespace(ns);
        try (KopfRunner runner = KopfRunner.start(kubeconfig, concat("run", options, OPERATOR))) {
            await().atMost(WAIT).until(() -> {
                CustomResourceConversion conversion = client.apiextensions().v1().customResourceDefinitions()
                        .withName("caches.kopf4j.dev").get().getSpec().getConversion();
                return conversion != null && "Webhook".equals(conversion.getStrategy());
            });
            awaitConversionsServed(v1, v1alpha1);

            try (InputStream yaml = Files.newInputStream(Path.of("versions/cache-v1alpha1.yaml"))) {
                v1alpha1.load(yaml).create();
            }
            await().atMost(WAIT).untilAsserted(() -> assertThat(v1.withName("sessions").get().getAdditionalProperties())
                    .containsEntry("spec", Map.of("memory", "512Mi", "evictionPolicy", "allkeys-lru"))
                    .containsEntry("status", Map.of("size", Map.of("memory", "512Mi", "evictionPolicy", "allkeys-lru"))));

            v1.withName("sessions").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\": {\"evictionPolicy\": \"noeviction\"}}");
            GenericKubernetesResource old = v1alpha1.withName("sessions").get();
            assertThat(old.getAdditionalProperties().get("spec")).isEqualTo(Map.of("memoryMiB", 512));
            assertThat(old.getMetadata().getAnnotations()).containsKey("kopf4j.dev/conversion-data");

            // An old client doubles the memory, reading and writing v1alpha1 (again if the operator wrote meanwhile).
            await().atMost(WAIT).ignoreException(KubernetesClientException.class).until(() -> {
                GenericKubernetesResource read = v1alpha1.withName("sessions").get();
                read.getAdditionalProperties().put("spec", Map.of("memoryMiB", 1024));
                return v1alpha1.resource(read).update() != null;
            });
            await().atMost(WAIT).untilAsserted(() -> assertThat(v1.withName("sessions").get().getAdditionalProperties())
                    .containsEntry("spec", Map.of("memory", "1024Mi", "evictionPolicy", "noeviction"))
                    .containsEntry("status", Map.of("size", Map.of("memory", "1024Mi", "evictionPolicy", "noeviction"))));
            GeneratedRbac.assertNoForbidden(runner.output());
        }
        GeneratedRbac.assertCallsWithinRulesAndRulesUsed(cluster, ns, Map.of());
    }

    @Test
    void theConversionsLoseNothingOnARoundTrip() {
        CacheOperator.V1.Cache cache = new CacheOperator.V1.Cache();
        cache.setMetadata(new ObjectMetaBuilder().withName("sessions").build());
        cache.setSpec(new CacheOperator.V1.Cache.Spec("2Gi", "noeviction"));
        CacheOperator.V1alpha1.Cache old = new CacheOperator.V1alpha1.Cache();
        old.setSpec(new CacheOperator.V1alpha1.Cache.Spec(256));

        ConversionTester conversions = ConversionTester.of(CacheOperator.class);
        conversions.assertRoundTrip(cache, old);
        assertThat(conversions.convert(cache, CacheOperator.V1alpha1.Cache.class).getSpec().memoryMiB()).isEqualTo(2048);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> conversions.withoutRecord().assertRoundTrip(cache))
                .hasMessage("v1 → v1alpha1 → v1 (without the record) loses spec.memory: \"2Gi\" came back as \"2048Mi\"");
    }

    @Test
    void theCrdIsGeneratedFromTheOperatorsClasses() {
        Main.Captured result = Main.capture("crd", OPERATOR);
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(Path.of("versions/crd.yaml")).as("regenerate it: ./kopf4j crd examples/versions/CacheOperator.java"
                + " > examples/versions/crd.yaml").hasContent(result.out());
    }

    /**
     * The API server loads a CRD's conversion a moment after it changes: until then a Cache written
     * in v1 reads in v1alpha1 unconverted. Waits until a probe reads converted, then removes it.
     */
    private static void awaitConversionsServed(
            NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> v1,
            NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> v1alpha1) {
        GenericKubernetesResource probe = new GenericKubernetesResource();
        probe.setApiVersion("kopf4j.dev/v1");
        probe.setKind("Cache");
        probe.setMetadata(new ObjectMetaBuilder().withName("probe").build());
        probe.setAdditionalProperty("spec", Map.of("memory", "1Gi"));
        v1.resource(probe).create();
        await().atMost(WAIT).until(() -> Map.of("memoryMiB", 1024).equals(v1alpha1.withName("probe").get()
                .getAdditionalProperties().get("spec")));
        v1.withName("probe").delete();
    }

    private static String[] concat(String command, List<String> options, String file) {
        List<String> all = new java.util.ArrayList<>(List.of(command));
        all.addAll(options);
        all.add(file);
        return all.toArray(String[]::new);
    }
}
