package io.kopf4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a kubeconfig gives the login: here, the cluster's {@code proxy-url}, as Kopf 1.42.4 reads it. */
class LoginsTest {
    private static Path kubeconfig(Path directory, String proxy) throws IOException {
        return Files.writeString(directory.resolve("config"), """
                apiVersion: v1
                kind: Config
                current-context: dev
                contexts:
                - name: dev
                  context: {cluster: behind-proxy, user: dev}
                - name: other
                  context: {cluster: direct, user: dev}
                clusters:
                - name: behind-proxy
                  cluster: {server: "https://10.0.0.1:6443", %s}
                - name: direct
                  cluster: {server: "https://10.0.0.2:6443"}
                users:
                - name: dev
                  user: {token: abc}
                """.formatted(proxy));
    }

    @Test
    void theCurrentClustersProxyUrlIsTheConnectionsProxy(@TempDir Path directory) throws IOException {
        Path file = kubeconfig(directory, "proxy-url: \"http://proxy.example.com:3128\"");
        assertThat(Logins.withKubeconfig(file, null).proxyUrl()).isEqualTo("http://proxy.example.com:3128");
        assertThat(Logins.withKubeconfig(file, "other").proxyUrl()).isNull();
    }

    @Test
    void aClusterWithoutOneHasNone(@TempDir Path directory) throws IOException {
        assertThat(Logins.withKubeconfig(kubeconfig(directory, "insecure-skip-tls-verify: true"), null).proxyUrl()).isNull();
    }
}
