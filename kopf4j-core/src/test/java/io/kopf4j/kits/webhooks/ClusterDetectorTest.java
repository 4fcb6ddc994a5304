package io.kopf4j.kits.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.kits.webhooks.WebhookK3dServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClusterDetectorTest {
    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @ParameterizedTest(name = "{0}")
    @CsvSource(nullValues = "NULL", delimiter = '|', value = {
            "k3d by subject       | 0.0.0.0       | k3s                | ''      | k3s-server-ca@1700000000 | ''                 | v1.30.4+k3s1  | host.k3d.internal",
            "k3s by organisation  | 10.0.0.5      | kube-apiserver     | k3s     | kubernetes               | ''                 | ''            | host.k3d.internal",
            "k3s by issuer        | 10.0.0.5      | kube-apiserver     | ''      | k3s-server-ca@1          | ''                 | ''            | host.k3d.internal",
            "k3s by version       | 127.0.0.1     | ''                 | ''      | ''                       | ''                 | v1.29.1+k3s2  | host.k3d.internal",
            "minikube by subject  | 127.0.0.1     | minikube           | ''      | minikubeCA               | minikube           | v1.30.0       | host.minikube.internal",
            "minikube by issuer   | 192.168.49.2  | apiserver          | ''      | minikubeCA               | ''                 | v1.30.0       | host.minikube.internal",
            "docker desktop       | kubernetes.docker.internal | kube-apiserver | ''      | kubernetes     | docker-for-desktop | v1.29.2       | host.docker.internal",
            "local 127.0.0.1      | 127.0.0.1     | kube-apiserver     | ''      | kopf4j-local-ca          | localhost          | v1.30.0       | 127.0.0.1",
            "local localhost      | localhost     | kube-apiserver     | ''      | kubernetes               | ''                 | v1.30.0       | 127.0.0.1",
            "local ipv6           | ::1           | ''                 | ''      | ''                       | ''                 | ''            | 127.0.0.1",
            "remote cluster       | 10.20.30.40   | kube-apiserver     | ''      | kubernetes               | kubernetes.default | v1.30.0-gke.1 | NULL",
            "remote by name       | api.example.com | kube-apiserver   | ''      | kubernetes               | ''                 | v1.30.0       | NULL",
    })
    void guessesTheHostFromTheApiServersFacts(String cluster, String host, String subjectCn, String subjectOrg, String issuerCn,
                                              String altName, String gitVersion, String expected) {
        ApiServerFacts facts = new ApiServerFacts(host, subjectCn, subjectOrg, issuerCn,
                altName.isEmpty() ? List.of() : List.of(altName), gitVersion);

        assertThat(ClusterDetector.guessHost(facts)).isEqualTo(expected);
    }

    @Test
    void theLocalClusterServersNameTheirHosts() throws Exception {
        assertThat(servers.start(new WebhookK3dServer().addr("127.0.0.1")).url()).startsWith("https://host.k3d.internal:");
        assertThat(servers.start(new WebhookMinikubeServer().addr("127.0.0.1")).url()).startsWith("https://host.minikube.internal:");
        assertThat(servers.start(new WebhookDockerDesktopServer().addr("127.0.0.1")).url()).startsWith("https://host.docker.internal:");
        assertThat(servers.start(new WebhookK3dServer().addr("127.0.0.1").host("explicit.example")).url())
                .startsWith("https://explicit.example:");
    }

    /** A stand-in k3s API server: a server whose certificate is named as k3s names its own (it answers no /version). */
    @Test
    void theAutoServerRecognisesAClusterByItsApiServersCertificate(@TempDir Path dir) throws Exception {
        TestPki k3s = TestPki.create("k3s-server-ca@1700000000");
        Path certfile = dir.resolve("k3s.crt");
        Path pkeyfile = dir.resolve("k3s.key");
        k3s.write(k3s.server("k3s", "localhost", "127.0.0.1"), certfile, pkeyfile);
        WebhookClientConfig apiserver = servers.start(new WebhookServer().addr("127.0.0.1").certfile(certfile).pkeyfile(pkeyfile));

        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl(apiserver.url())
                .withTrustCerts(true).withRequestRetryBackoffLimit(0).build()).build()) {
            ApiServerFacts facts = ApiServerFacts.read(client);
            WebhookClientConfig autoServer = servers.start(new WebhookAutoServer(), client);
            WebhookAutoTunnel tunnel = new WebhookAutoTunnel();
            tunnel.path("/hooks").binary(Path.of("/no/ngrok/needed"));
            WebhookClientConfig autoTunnel = servers.start(tunnel, client);

            assertThat(facts.subjectCn()).isEqualTo("k3s");
            assertThat(facts.issuerCn()).isEqualTo("k3s-server-ca@1700000000");
            assertThat(facts.host()).isEqualTo("127.0.0.1");
            assertThat(autoServer.url()).startsWith("https://host.k3d.internal:");
            assertThat(autoTunnel.url()).startsWith("https://host.k3d.internal:").endsWith("/hooks");
            assertThat(autoTunnel.caBundle()).isNotNull();
            assertThat(tunnel.ready()).isTrue();
        }
    }
}
