package io.kopf4j.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The admission benchmark: kopf4j with the seed's validating and mutating handlers
 * ({@code bench/BenchAdmission.java}) on its HTTPS server at 127.0.0.1, with managed
 * configurations, on a fresh LocalCluster. Once the API server calls the webhooks, it makes N
 * dry-run creations one at a time through the API server, alternating between objects the webhooks
 * get (both handlers run) and objects their object selector leaves out (the floor, measured in the
 * same run, interleaved), then posts N AdmissionReviews straight to the webhook server (the URL and
 * CA bundle of the managed configuration). Prints the latencies' p50/p99 as a markdown table.
 *
 * <pre>{@code
 * bench/run-admission.sh 1000   # java io.kopf4j.bench.AdmissionBenchmark <checkout> 1000
 * }</pre>
 */
public final class AdmissionBenchmark {
    private static final String MANAGED = "bench.kopf4j.dev";
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration POLL = Duration.ofMillis(250);
    private static final String SKIP_LABEL = "bench-no-webhook";

    private final Kopf4jScenario scenario;
    private final KubernetesClient client;
    private final MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> examples;

    private AdmissionBenchmark(Kopf4jScenario scenario) {
        this.scenario = scenario;
        this.client = scenario.cluster().client();
        this.examples = client.genericKubernetesResources("kopf.dev/v1", "KopfExample");
    }

    public static void main(String[] args) throws Exception {
        try (Kopf4jScenario scenario = Kopf4jScenario.start("admission", Kopf4jScenario.root(args),
                Kopf4jScenario.n(args, 1000), List.of(), List.of("bench/BenchAdmission.java"))) {
            GoalTable table = new AdmissionBenchmark(scenario).measure();
            System.out.println();
            System.out.println(table.render());
        }
    }

    private GoalTable measure() throws Exception {
        int n = scenario.n();
        long spawned = scenario.operator().spawnedNanos();
        ValidatingWebhook webhook = awaitWebhooksCalled();
        scenario.print(format("start-up: %.1f s until the API server calls the webhooks", (System.nanoTime() - spawned) / 1e9));

        double[] floor = new double[n];
        double[] webhooks = new double[n];
        for (int i = 0; i < n; i++) {   // interleaved: the machine's noise falls on both alike
            webhooks[i] = timedDryRun("adm-" + i, false);
            floor[i] = timedDryRun("floor-" + i, true);
        }
        double[] direct = directRequests(webhook, n);

        Percentiles withWebhooks = Percentiles.of(webhooks);
        Percentiles without = Percentiles.of(floor);
        Percentiles server = Percentiles.of(direct);
        return new GoalTable("Admission latency, " + n + " requests each, one at a time (ms)", null)
                .figure("dry-run create through the API server, no webhook called (floor): p50 / p99",
                        format("%.2f / %.2f", without.at(0.50), without.at(0.99)))
                .figure("the same, with kopf4j's validating and mutating webhooks: p50 / p99",
                        format("%.2f / %.2f", withWebhooks.at(0.50), withWebhooks.at(0.99)))
                .figure("added by the two webhook calls: p50 / p99",
                        format("%.2f / %.2f", withWebhooks.at(0.50) - without.at(0.50), withWebhooks.at(0.99) - without.at(0.99)))
                .figure("an AdmissionReview posted to the webhook server directly (validating): p50 / p99",
                        format("%.2f / %.2f", server.at(0.50), server.at(0.99)));
    }

    /** Until the managed configuration exists and the API server rejects an oversized object through it. */
    private ValidatingWebhook awaitWebhooksCalled() throws InterruptedException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            ValidatingWebhookConfiguration configuration = client.admissionRegistration().v1()
                    .validatingWebhookConfigurations().withName(MANAGED).get();
            if (configuration != null && configuration.getWebhooks() != null && !configuration.getWebhooks().isEmpty()) {
                try {
                    dryRun(example("probe", 101, false));
                } catch (KubernetesClientException e) {
                    if (String.valueOf(e.getMessage()).contains("Size must be <= 100")) {
                        return configuration.getWebhooks().get(0);
                    }
                }
            }
            Thread.sleep(POLL);
        }
        throw new IllegalStateException("the API server did not call kopf4j's webhooks within " + STARTUP_TIMEOUT);
    }

    private double timedDryRun(String name, boolean skipped) {
        GenericKubernetesResource object = example(name, 1, skipped);
        long start = System.nanoTime();
        dryRun(object);
        return (System.nanoTime() - start) / 1e6;
    }

    private void dryRun(GenericKubernetesResource object) {
        examples.inNamespace(BenchCluster.NAMESPACE).resource(object).dryRun().create();
    }

    private static GenericKubernetesResource example(String name, int size, boolean skipped) {
        return new GenericKubernetesResourceBuilder().withApiVersion("kopf.dev/v1").withKind("KopfExample")
                .withNewMetadata().withName(name).withLabels(skipped ? Map.of(SKIP_LABEL, "1") : Map.of()).endMetadata()
                .addToAdditionalProperties("spec", Map.of("size", size)).build();
    }

    /** N AdmissionReviews of a creation, posted to the validating webhook's URL, trusting its CA bundle. */
    private static double[] directRequests(ValidatingWebhook webhook, int n) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        byte[] pem = Base64.getDecoder().decode(webhook.getClientConfig().getCaBundle());
        int index = 0;
        for (var certificate : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem))) {
            trust.setCertificateEntry("ca-" + index++, certificate);
        }
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trustManagers.getTrustManagers(), null);
        String review = """
                {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "bench",
                 "kind": {"group": "kopf.dev", "version": "v1", "kind": "KopfExample"},
                 "resource": {"group": "kopf.dev", "version": "v1", "resource": "kopfexamples"},
                 "operation": "CREATE", "userInfo": {"username": "bench"}, "dryRun": true,
                 "object": {"apiVersion": "kopf.dev/v1", "kind": "KopfExample",
                            "metadata": {"name": "direct", "namespace": "bench"}, "spec": {"size": 1}}}}""";
        double[] latencies = new double[n];
        try (HttpClient http = HttpClient.newBuilder().sslContext(tls).build()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(webhook.getClientConfig().getUrl()))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(review, StandardCharsets.UTF_8)).build();
            for (int i = 0; i < n; i++) {
                long start = System.nanoTime();
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                latencies[i] = (System.nanoTime() - start) / 1e6;
                if (response.statusCode() != 200 || !response.body().contains("\"allowed\": true")
                        && !response.body().contains("\"allowed\":true")) {
                    throw new IllegalStateException("the webhook answered " + response.statusCode() + ": " + response.body());
                }
            }
        }
        return latencies;
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
