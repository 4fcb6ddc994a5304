package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Handler;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code /metrics} served as controller-runtime serves it with {@code --metrics-secure}: HTTPS, the
 * scraper's token authenticated by the real API server (TokenReview) and its access to
 * {@code /metrics} asked of it (SubjectAccessReview), which a ClusterRole with
 * {@code nonResourceURLs: [/metrics]} grants.
 */
@ExtendWith(LocalClusterExtension.class)
class SecureMetricsTest {
    @Test
    void onlyAScraperThatTheApiServerAllowsReadsTheMetrics(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        KubernetesClient admin = cluster.client();
        String reader = namespace.name() + "-metrics-reader";
        admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName(reader).endMetadata()
                .addToRules(new PolicyRuleBuilder().withNonResourceURLs("/metrics").withVerbs("get").build()).build()).create();
        admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata().withName(reader).endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", reader)
                .addNewSubject().withKind("ServiceAccount").withName("scraper").withNamespace(namespace.name()).endSubject()
                .build()).create();
        String scraper = token(admin, namespace.name(), "scraper");
        String stranger = token(admin, namespace.name(), "stranger");

        OperatorSettings settings = new OperatorSettings();
        settings.metrics.secure = true;
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (Operator operator = fixture.start(fixture.operator().settings(settings).metricsAddress("127.0.0.1:0")
                .handler(Handler.create("kopfexamples").id("create").handle(context -> "created")))) {
            URI uri = URI.create("https://127.0.0.1:" + operator.metricsAddress().getPort() + "/metrics");
            HttpResponse<String> allowed = get(uri, scraper);
            assertThat(allowed.statusCode()).isEqualTo(200);
            assertThat(allowed.body()).contains("kopf4j_objects");
            assertThat(get(uri, scraper).statusCode()).as("again, from the cache").isEqualTo(200);

            HttpResponse<String> denied = get(uri, stranger);
            assertThat(denied.statusCode()).isEqualTo(403);
            assertThat(denied.body()).isEqualTo("Authorization denied for user system:serviceaccount:" + namespace.name()
                    + ":stranger\n");
            assertThat(get(uri, null).statusCode()).isEqualTo(401);
            assertThat(get(uri, "not-a-token").statusCode()).isEqualTo(401);
            assertThat(get(URI.create("https://127.0.0.1:" + operator.metricsAddress().getPort() + "/metricsfoo"), scraper)
                    .statusCode()).isEqualTo(404);
            URI plain = URI.create("http://127.0.0.1:" + operator.metricsAddress().getPort() + "/metrics");
            assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(plain).timeout(Duration.ofSeconds(5))
                    .build(), HttpResponse.BodyHandlers.ofString())).as("no plain HTTP").isInstanceOf(IOException.class);
        }
    }

    private static String token(KubernetesClient admin, String namespace, String name) {
        admin.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder().withNewMetadata().withName(name)
                .endMetadata().build()).create();
        return admin.serviceAccounts().inNamespace(namespace).withName(name)
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
                .getStatus().getToken();
    }

    private static HttpResponse<String> get(URI uri, String token) throws Exception {

        // The self-signed certificate is skipped, as kubebuilder's ServiceMonitor does (insecureSkipVerify).
        try (HttpClient client = HttpClient.newBuilder().sslContext(TrustingTls.context()).build()) {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
            if (token != null) {
                request.header("Authorization", "Bearer " + token);
            }
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
