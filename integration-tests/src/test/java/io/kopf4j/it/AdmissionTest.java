package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.kopf4j.AdmissionError;
import io.kopf4j.Handler;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Patch;
import io.kopf4j.Spec;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.WebhookError;
import io.kopf4j.WebhookFn;
import io.kopf4j.WebhookRequest;
import io.kopf4j.WebhookServing;
import io.kopf4j.cli.Main;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.kits.webhooks.WebhookServerChoice;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Admission webhooks on the real API server: the managed configurations with Kopf's shape, and the
 * API server calling kopf4j's HTTPS webhook server on 127.0.0.1 (rejections, mutations, dry runs,
 * warnings); the configurations reduced to the persistent webhooks after a graceful stop; and the
 * start refused when admission handlers have no server.
 */
@ExtendWith(LocalClusterExtension.class)
class AdmissionTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Only objects with this label go to the test's webhooks (their objectSelector): other tests' objects never do. */
    private static final String LABEL = "kopf4j-it-admission";
    /** The names of the objects the validating handler saw in dry runs. */
    static final Set<String> DRY_RUNS = ConcurrentHashMap.newKeySet();

    public static class Handlers {
        private final String managed;

        public Handlers(String managed) {
            this.managed = managed;
        }

        @On.Startup
        public void configure(OperatorSettings settings) {
            // No server: kopf4j's choice without $KOPF4J_WEBHOOK_HOST, a WebhookAutoServer (127.0.0.1 for a local cluster).
            settings.admission.managed = managed;
        }

        @On.Validate(value = "kopfexamples", labels = LABEL, persistent = true, ignoreFailures = true)
        public void validate(Spec spec, String name, boolean dryrun, List<String> warnings) {
            if (dryrun) {
                DRY_RUNS.add(name);
            }
            if (spec.getInt("size", 0) > 100) {
                throw new AdmissionError("Size must be <= 100", 422);
            }
            if (spec.getInt("size", 0) == 13) {
                throw new IllegalStateException("an unexpected failure");   // tolerated: ignoreFailures
            }
            warnings.add("checked by kopf4j");
        }

        @On.Mutate(value = "kopfexamples", labels = LABEL, operations = "CREATE")
        public void setDefaults(Spec spec, Patch patch) {
            if (spec.get("field") == null) {
                patch.spec().put("field", "default");
            }
        }
    }

    public static class ManualHandlers {
        @On.Validate(value = "kopfexamples", id = "check_size", operations = "CREATE")
        public void validate() {
        }

        @On.Mutate(value = "kopfexamples", persistent = true)
        public void setDefaults() {
        }
    }

    @Test
    void theApiServerCallsTheWebhooksOfTheManagedConfigurations(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KubernetesClient client = cluster.client();
        String managed = namespace.name() + ".kopf4j.dev";
        try (CapturedLogs logs = new CapturedLogs("kopf.objects", WebhookServerChoice.class.getName())) {
            Operator operator = fixture.start(fixture.operator().handlers(new Handlers(managed))
                    .healthProbeAddress("127.0.0.1:0"));
            try {
                ValidatingWebhook webhook = configured(client, managed).getWebhooks().get(0);
                assertThat(webhook.getName()).isEqualTo("validate." + managed);
                assertThat(webhook.getClientConfig().getUrl()).matches("https://127\\.0\\.0\\.1:\\d+/validate");
                assertThat(webhook.getClientConfig().getCaBundle()).isNotBlank();
                assertThat(webhook.getFailurePolicy()).isEqualTo("Ignore");
                assertThat(webhook.getSideEffects()).isEqualTo("None");
                assertThat(webhook.getMatchPolicy()).isEqualTo("Equivalent");
                assertThat(webhook.getTimeoutSeconds()).isEqualTo(30);
                assertThat(webhook.getAdmissionReviewVersions()).containsExactly("v1", "v1beta1");
                assertThat(webhook.getObjectSelector().getMatchExpressions()).singleElement()
                        .satisfies(e -> assertThat(List.of(e.getKey(), e.getOperator())).containsExactly(LABEL, "Exists"));
                assertThat(webhook.getRules()).singleElement().satisfies(rule -> {
                    assertThat(rule.getApiGroups()).containsExactly("kopf.dev");
                    assertThat(rule.getApiVersions()).containsExactly("v1");
                    assertThat(rule.getResources()).containsExactly("kopfexamples");
                    assertThat(rule.getOperations()).containsExactly("*");
                });
                assertThat(mutating(client, managed).getWebhooks()).singleElement().satisfies(mutation -> {
                    assertThat(mutation.getName()).isEqualTo("setdefaults." + managed);   // lower-cased for Kubernetes
                    assertThat(mutation.getFailurePolicy()).isEqualTo("Fail");
                    assertThat(mutation.getRules().get(0).getOperations()).containsExactly("CREATE");
                });
                assertThat(ProbesTest.get(operator.healthProbeAddress(), "/readyz/webhook-server").status()).isEqualTo(200);
                assertThat(logs.messages()).contains(
                        "Webhooks are served by a WebhookAutoServer (no $KOPF4J_WEBHOOK_HOST; settings.admission.server to choose).");

                // The API server loads new configurations asynchronously: dry runs until it rejects.
                await().atMost(WAIT).untilAsserted(() -> assertThatThrownBy(() -> create(client, namespace, "big", 101, true))
                        .isInstanceOf(KubernetesClientException.class).hasMessageContaining("Size must be <= 100"));
                assertThat(DRY_RUNS).contains("big");
                assertThatThrownBy(() -> create(client, namespace, "big", 101, false))
                        .hasMessageContaining("admission webhook \"validate." + managed + "\" denied the request: Size must be <= 100");
                assertThat(fixture.examples().exists("big")).isFalse();
                // The refusal is the handler doing its job: Kopf's words at INFO, not an ERROR to alert on.
                assertThat(logs.events()).filteredOn(event -> event.getFormattedMessage()
                                .endsWith("Webhook 'validate' failed permanently: Size must be <= 100"))
                        .isNotEmpty().extracting(event -> event.getLevel().toString()).containsOnly("INFO");

                create(client, namespace, "small", 5, false);
                assertThat(fixture.examples().get("small").getAdditionalProperties().get("spec"))
                        .isEqualTo(Map.of("size", 5, "field", "default"));
                assertThat(DRY_RUNS).doesNotContain("small");
                create(client, namespace, "unlucky", 13, false);   // the handler fails, ignoreFailures lets it through
                assertThat(fixture.examples().exists("unlucky")).isTrue();

                assertThat(warnings(client, namespace, "warned")).contains("299 - \"checked by kopf4j\"");
            } finally {
                operator.stop();
            }

            assertThat(validating(client, managed).getWebhooks()).extracting(ValidatingWebhook::getName)
                    .containsExactly("validate." + managed);
            assertThat(mutating(client, managed).getWebhooks()).isNullOrEmpty();
            // The persistent webhook stays while its server is gone: failurePolicy Ignore lets requests through.
            create(client, namespace, "unchecked", 101, false);
            assertThat(fixture.examples().exists("unchecked")).isTrue();
        } finally {
            client.admissionRegistration().v1().validatingWebhookConfigurations().withName(managed).delete();
            client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(managed).delete();
        }
    }

    /** A server that publishes a client config at once and is ready when the test says so. */
    static final class FakeServer implements WebhookServing {
        final AtomicBoolean ready = new AtomicBoolean();
        volatile WebhookFn requests;

        @Override
        public void start(KubernetesClient client, WebhookFn engine, Consumer<WebhookClientConfig> configs) {
            requests = engine;
            configs.accept(WebhookClientConfig.url("https://127.0.0.1:1", null));
        }

        @Override
        public boolean ready() {
            return ready.get();
        }

        @Override
        public void close() {
            ready.set(false);
        }
    }

    @Test
    void theReadinessCheckFollowsTheServerAndUnmanagedConfigurationsAreLeftAlone(LocalCluster cluster,
                                                                                 TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        FakeServer server = new FakeServer();
        OperatorSettings settings = new OperatorSettings();
        settings.admission.server = server;
        int configurations = cluster.client().admissionRegistration().v1().validatingWebhookConfigurations().list()
                .getItems().size();
        try (Operator operator = fixture.start(fixture.operator().settings(settings).healthProbeAddress("127.0.0.1:0")
                .handler(Handler.validate("kopfexamples").id("check").handle(context -> null)))) {
            assertThat(ProbesTest.get(operator.healthProbeAddress(), "/readyz/webhook-server").status()).isEqualTo(500);
            server.ready.set(true);
            assertThat(ProbesTest.get(operator.healthProbeAddress(), "/readyz/webhook-server").status()).isEqualTo(200);
            // The engine behind the server: a resource without admission handlers is a 404.
            Map<String, Object> review = Map.of("request", Map.of("uid", "1", "userInfo", Map.of(),
                    "resource", Map.of("group", "", "version", "v1", "resource", "pods"), "object", Map.of()));
            assertThatThrownBy(() -> server.requests.serve(review, new WebhookRequest(null, Map.of(), Map.of())))
                    .isInstanceOf(WebhookError.class).extracting(e -> ((WebhookError) e).httpStatus()).isEqualTo(404);
        }
        assertThat(cluster.client().admissionRegistration().v1().validatingWebhookConfigurations().list().getItems())
                .hasSize(configurations);
    }

    @Test
    void theManagedConfigurationsFollowACrdThatAppearsLater(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        String group = namespace.name() + ".kopf4j.dev";
        String managed = "later." + group;
        OperatorSettings settings = new OperatorSettings();
        settings.admission.server = new FakeServer();
        settings.admission.managed = managed;
        KubernetesClient client = cluster.client();
        try (Operator operator = fixture.start(fixture.operator().settings(settings)
                .handler(Handler.validate("widgets." + group).id("check").ignoreFailures().handle(context -> null)))) {
            assertThat(configured(client, managed).getWebhooks().get(0).getRules()).isEmpty();
            fixture.installCrd(group, "widgets", "Widget", OperatorFixture.ANY_FIELDS);
            await().atMost(WAIT).untilAsserted(() -> assertThat(validating(client, managed).getWebhooks().get(0).getRules())
                    .singleElement().satisfies(rule -> {
                        assertThat(rule.getApiGroups()).containsExactly(group);
                        assertThat(rule.getResources()).containsExactly("widgets");
                    }));
        } finally {
            client.admissionRegistration().v1().validatingWebhookConfigurations().withName(managed).delete();
            client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(managed).delete();
            client.apiextensions().v1().customResourceDefinitions().withName("widgets." + group).delete();
        }
    }

    /** The configuration once the operator has written its webhooks. */
    @Test
    void theCommandPrintsTheConfigurationsToApplyByHand(LocalCluster cluster, @TempDir Path dir) throws Exception {
        cluster.apply(KopfExamples.CRD);
        Path ca = Files.writeString(dir.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = Main.execute(new String[] {"webhook-configuration", "--url", "https://operator.example.com:9443/",
                "--ca-bundle", ca.toString(), "--name", "manual.kopf4j.dev", "--kubeconfig", cluster.kubeconfig().toString(),
                ManualHandlers.class.getName()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(err.toString()).isEmpty();
        assertThat(exitCode).isZero();
        List<Map<String, Object>> documents = new ArrayList<>();
        new ObjectMapper(new YAMLFactory()).readValues(new YAMLFactory().createParser(out.toString()), Map.class)
                .forEachRemaining(document -> documents.add(asMap(document)));
        String caBundle = Base64.getEncoder().encodeToString(Files.readAllBytes(ca));
        assertThat(documents).extracting(d -> d.get("kind"))
                .containsExactly("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration");
        assertThat(documents.get(0)).containsEntry("apiVersion", "admissionregistration.k8s.io/v1")
                .containsEntry("metadata", Map.of("name", "manual.kopf4j.dev"));
        Map<String, Object> validating = asMap(((List<?>) documents.get(0).get("webhooks")).get(0));
        assertThat(validating).containsEntry("name", "check-size.manual.kopf4j.dev")
                .containsEntry("clientConfig", Map.of("url", "https://operator.example.com:9443/check_size", "caBundle", caBundle))
                .containsEntry("rules", List.of(Map.of("apiGroups", List.of("kopf.dev"), "apiVersions", List.of("v1"),
                        "resources", List.of("kopfexamples"), "operations", List.of("CREATE"), "scope", "*")));
        Map<String, Object> mutating = asMap(((List<?>) documents.get(1).get("webhooks")).get(0));
        assertThat(mutating).containsEntry("name", "setdefaults.manual.kopf4j.dev");
        // What it prints, the API server accepts.
        Path file = Files.writeString(dir.resolve("webhooks.yaml"), out.toString());
        try {
            cluster.apply(file);
            assertThat(validating(cluster.client(), "manual.kopf4j.dev").getWebhooks()).hasSize(1);
        } finally {
            cluster.client().admissionRegistration().v1().validatingWebhookConfigurations().withName("manual.kopf4j.dev").delete();
            cluster.client().admissionRegistration().v1().mutatingWebhookConfigurations().withName("manual.kopf4j.dev").delete();
        }
    }

    private static ValidatingWebhookConfiguration configured(KubernetesClient client, String name) {
        return await().atMost(WAIT).until(() -> validating(client, name),
                configuration -> configuration != null && configuration.getWebhooks() != null
                        && !configuration.getWebhooks().isEmpty());
    }

    private static ValidatingWebhookConfiguration validating(KubernetesClient client, String name) {
        return client.admissionRegistration().v1().validatingWebhookConfigurations().withName(name).get();
    }

    private static MutatingWebhookConfiguration mutating(KubernetesClient client, String name) {
        return client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(name).get();
    }

    private static void create(KubernetesClient client, TemporaryNamespace namespace, String name, int size, boolean dryRun) {
        var object = new GenericKubernetesResourceBuilder().withApiVersion("kopf.dev/v1").withKind("KopfExample")
                .withNewMetadata().withName(name).withLabels(Map.of(LABEL, "yes")).endMetadata()
                .addToAdditionalProperties("spec", Map.of("size", size)).build();
        var resource = client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name())
                .resource(object);
        if (dryRun) {
            resource.dryRun().create();
        } else {
            resource.create();
        }
    }

    /** The Warning headers of a dry-run creation: fabric8 does not expose them, so the request is made raw. */
    private static List<String> warnings(KubernetesClient client, TemporaryNamespace namespace, String name)
            throws Exception {
        String body = "{\"apiVersion\": \"kopf.dev/v1\", \"kind\": \"KopfExample\", \"metadata\": {\"name\": \"" + name
                + "\", \"labels\": {\"" + LABEL + "\": \"yes\"}}, \"spec\": {\"size\": 1}}";
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder()
                .uri(client.getMasterUrl().toString().replaceAll("/$", "") + "/apis/kopf.dev/v1/namespaces/"
                        + namespace.name() + "/kopfexamples?dryRun=All")
                .post("application/json", body).build();
        HttpResponse<String> response = client.getHttpClient().sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
        assertThat(response.code()).isEqualTo(201);
        return response.headers("Warning");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object yamlDocument) {
        return (Map<String, Object>) yamlDocument;
    }
}
