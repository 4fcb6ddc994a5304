package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.cli.Main;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.kits.webhooks.WebhookAutoServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conversions on the real API server: a kind in two versions generated into one CRD by
 * {@code kopf4j crd}, its {@code spec.conversion} set by the operator to its webhook server, objects
 * written in one version and read in the other, a handler on v1 seeing an object created in
 * v1alpha1, a field v1alpha1 cannot hold surviving an edit made in v1alpha1, a refused conversion
 * reported by the API server with the method's message, and the conversions served again after a
 * restart on another port with another certificate.
 */
@ExtendWith(LocalClusterExtension.class)
class ConversionTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String CRD = "convexamples.kopf4j.dev";
    /** What the v1 handler saw: the name and the v1 size. */
    static final Map<String, String> SEEN = new ConcurrentHashMap<>();

    /** The old version: a size in gigabytes. */
    public static final class V1alpha1 {
        private V1alpha1() {
        }

        @Group("kopf4j.dev")
        @Version(value = "v1alpha1", storage = false)
        public static class ConvExample extends CustomResource<ConvExample.Spec, Void> implements Namespaced {
            public record Spec(String field, Integer size) {
            }
        }
    }

    /** The storage version: a size with its unit, which v1alpha1 cannot hold. */
    public static final class V1 {
        private V1() {
        }

        @Group("kopf4j.dev")
        @Version("v1")
        public static class ConvExample extends CustomResource<ConvExample.Spec, Void> implements Namespaced {
            public record Spec(String field, Size size) {
            }

            public record Size(Integer amount, String unit) {
            }
        }
    }

    public static class Handlers {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.admission.server = new WebhookAutoServer();
        }

        @On.Convert
        public V1.ConvExample up(V1alpha1.ConvExample old) {
            if ("refuse-up".equals(old.getSpec().field())) {
                throw new IllegalArgumentException("refused on the way up");
            }
            V1.ConvExample example = new V1.ConvExample();
            Integer size = old.getSpec().size();
            example.setSpec(new V1.ConvExample.Spec(old.getSpec().field(), size == null ? null : new V1.ConvExample.Size(size, "Gi")));
            return example;
        }

        @On.Convert
        public V1alpha1.ConvExample down(V1.ConvExample hub) {
            V1.ConvExample.Size size = hub.getSpec().size();
            if (size != null && size.amount() > 1000) {
                throw new IllegalArgumentException("size too large for v1alpha1: " + size.amount());
            }
            V1alpha1.ConvExample example = new V1alpha1.ConvExample();
            example.setSpec(new V1alpha1.ConvExample.Spec(hub.getSpec().field(), size == null ? null : size.amount()));
            return example;
        }

        @On.Create("convexamples.v1.kopf4j.dev")
        public void create(V1.ConvExample example) {
            SEEN.put(example.getMetadata().getName(), example.getSpec().size().amount() + example.getSpec().size().unit());
        }
    }

    @TempDir
    Path dir;

    @Test
    void objectsAreConvertedBetweenVersionsByTheOperatorsMethods(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        // fabric8 retries a 500 for 20 s by default: a refused conversion is to be seen at once here.
        KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(cluster.client().getConfiguration())
                .withRequestRetryBackoffLimit(0).build()).build();
        // Generated with a conversion to a server that is not there (GitOps' form): the API server accepts
        // it, and the operator points it at its own server.
        String dead = "https://127.0.0.1:1";
        Main.Captured crd = Main.capture("crd", "--conversion-url", dead, V1.ConvExample.class.getName(),
                V1alpha1.ConvExample.class.getName());
        assertThat(crd.code()).as(crd.err()).isZero();
        cluster.apply(Files.writeString(dir.resolve("convexamples.yaml"), crd.out()));
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        var alpha = client.genericKubernetesResources("kopf4j.dev/v1alpha1", "ConvExample").inNamespace(namespace.name());
        var v1 = client.genericKubernetesResources("kopf4j.dev/v1", "ConvExample").inNamespace(namespace.name());
        try {
            Operator operator = fixture.start(fixture.operator().handlers(new Handlers()));
            WebhookClientConfig first = awaitWebhookConversion(client, dead + "/convert/" + CRD);
            try {
                assertThat(first.getUrl()).matches("https://127\\.0\\.0\\.1:\\d+/convert/" + CRD.replace(".", "\\."));
                assertThat(first.getCaBundle()).isNotBlank();
                awaitServedConversions(alpha, namespace);

                alpha.resource(object("kopf4j.dev/v1alpha1", namespace, "w1", Map.of("field", "f", "size", 5))).create();
                assertThat(v1.withName("w1").get().getAdditionalProperties().get("spec"))
                        .isEqualTo(Map.of("field", "f", "size", Map.of("amount", 5, "unit", "Gi")));
                await().atMost(WAIT).until(() -> "5Gi".equals(SEEN.get("w1")));

                // A unit v1alpha1 cannot hold survives an edit made through v1alpha1.
                v1.withName("w1").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\": {\"size\": {\"unit\": \"Mi\"}}}");
                GenericKubernetesResource old = alpha.withName("w1").get();
                assertThat(old.getAdditionalProperties().get("spec")).isEqualTo(Map.of("field", "f", "size", 5));
                assertThat(old.getMetadata().getAnnotations()).containsKey("kopf4j.dev/conversion-data");
                // The operator writes its own annotations meanwhile: read and write again on a conflict.
                await().atMost(WAIT).ignoreException(KubernetesClientException.class).until(() -> alpha.resource(
                        withSpec(alpha.withName("w1").get(), Map.of("field", "edited", "size", 5))).update() != null);
                GenericKubernetesResource edited = v1.withName("w1").get();
                assertThat(edited.getAdditionalProperties().get("spec"))
                        .isEqualTo(Map.of("field", "edited", "size", Map.of("amount", 5, "unit", "Mi")));
                assertThat(edited.getMetadata().getAnnotations()).doesNotContainKey("kopf4j.dev/conversion-data");

                // A refused conversion is the client's error, with the method's message.
                v1.resource(object("kopf4j.dev/v1", namespace, "big", Map.of("size", Map.of("amount", 2000, "unit", "Gi"))))
                        .create();
                assertThatThrownBy(() -> alpha.withName("big").get())
                        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(500))
                        .hasMessageContaining("conversion webhook for kopf4j.dev/v1, Kind=ConvExample failed:"
                                + " size too large for v1alpha1: 2000");
                v1.withName("big").delete();
            } finally {
                operator.stop();
            }

            // Stopped: the CRD keeps its conversion, which fails closed rather than serve unconverted objects.
            assertThat(crd(client).getSpec().getConversion().getWebhook().getClientConfig()).isEqualTo(first);
            assertThatThrownBy(() -> alpha.withName("w1").get()).isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining("conversion webhook for kopf4j.dev/v1, Kind=ConvExample failed");

            Operator restarted = fixture.start(fixture.operator().handlers(new Handlers()));
            try {
                WebhookClientConfig second = awaitWebhookConversion(client, first.getUrl());
                assertThat(second.getCaBundle()).isNotBlank();
                await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(alpha.withName("w1").get()
                        .getAdditionalProperties().get("spec")).isEqualTo(Map.of("field", "edited", "size", 5)));
            } finally {
                restarted.stop();
            }
        } finally {
            client.apiextensions().v1().customResourceDefinitions().withName(CRD).delete();
            client.close();
        }
    }

    @Test
    void webhookConfigurationPrintsTheCrdsConversionForGitOps(LocalCluster cluster) {
        Main.Captured printed = Main.capture("webhook-configuration", "--kubeconfig", cluster.kubeconfig().toString(),
                "--url", "https://operator.example.com:9443", Handlers.class.getName());
        assertThat(printed.code()).as(printed.err()).isZero();

        CustomResourceDefinition part = cluster.client().getKubernetesSerialization()
                .unmarshal(printed.out(), CustomResourceDefinition.class);
        assertThat(part.getMetadata().getName()).isEqualTo(CRD);
        assertThat(part.getSpec().getConversion().getStrategy()).isEqualTo("Webhook");
        assertThat(part.getSpec().getConversion().getWebhook().getClientConfig().getUrl())
                .isEqualTo("https://operator.example.com:9443/convert/" + CRD);
    }

    private static CustomResourceDefinition crd(KubernetesClient client) {
        return client.apiextensions().v1().customResourceDefinitions().withName(CRD).get();
    }

    /** Waits until the CRD converts by a webhook whose URL is not {@code previous}; returns its client config. */
    private static WebhookClientConfig awaitWebhookConversion(KubernetesClient client, String previous) {
        await().atMost(WAIT).until(() -> {
            var conversion = crd(client).getSpec().getConversion();
            return conversion != null && "Webhook".equals(conversion.getStrategy())
                    && !conversion.getWebhook().getClientConfig().getUrl().equals(previous);
        });
        assertThat(crd(client).getSpec().getConversion().getWebhook().getConversionReviewVersions())
                .containsExactly("v1", "v1beta1");
        return crd(client).getSpec().getConversion().getWebhook().getClientConfig();
    }

    /** The API server loads a CRD's conversion asynchronously: dry runs until the webhook answers them. */
    private static void awaitServedConversions(NonNamespaceOperation<GenericKubernetesResource,
            GenericKubernetesResourceList, Resource<GenericKubernetesResource>> alpha, TemporaryNamespace namespace) {
        await().atMost(WAIT).untilAsserted(() -> assertThatThrownBy(() -> alpha.resource(object("kopf4j.dev/v1alpha1",
                namespace, "probe", Map.of("field", "refuse-up"))).dryRun().create())
                .hasMessageContaining("conversion webhook for kopf4j.dev/v1alpha1, Kind=ConvExample failed:"
                        + " refused on the way up"));
    }

    private static GenericKubernetesResource object(String apiVersion, TemporaryNamespace namespace, String name,
                                                    Map<String, Object> spec) {
        return new GenericKubernetesResourceBuilder().withApiVersion(apiVersion).withKind("ConvExample")
                .withNewMetadata().withName(name).withNamespace(namespace.name()).endMetadata()
                .addToAdditionalProperties("spec", spec).build();
    }

    private static GenericKubernetesResource withSpec(GenericKubernetesResource object, Map<String, Object> spec) {
        object.getAdditionalProperties().put("spec", spec);
        return object;
    }
}
