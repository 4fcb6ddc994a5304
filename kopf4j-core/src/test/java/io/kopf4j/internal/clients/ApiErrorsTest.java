package io.kopf4j.internal.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.IOException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import org.junit.jupiter.api.Test;

class ApiErrorsTest {
    private static final String SERVER = "https://127.0.0.1:6443/";

    /** As fabric8 on the JDK's HTTP client wraps a failed connection: its own text, then a bare IOException. */
    private static KubernetesClientException unreachable(Throwable why) {
        ConnectException connect = new ConnectException();
        connect.initCause(why);
        return new KubernetesClientException("An error has occurred.", new IOException(null, connect));
    }

    private static KubernetesClientException http(int code, String message) {
        return new KubernetesClientException(new StatusBuilder().withCode(code).withMessage(message).build());
    }

    @Test
    void aRefusedConnectionNamesTheServersAddressInsteadOfFabric8sWrapper() {
        assertThat(ApiErrors.summary(unreachable(new ClosedChannelException()), SERVER))
                .isEqualTo("Connection refused (127.0.0.1:6443)");
    }

    @Test
    void anUnknownHostIsToldFromARefusedConnectionByTheConnectFailuresCause() {
        assertThat(ApiErrors.summary(unreachable(new UnresolvedAddressException()), "https://nohost.invalid"))
                .isEqualTo("Unknown host (nohost.invalid:443)");
    }

    @Test
    void anHttpFailureGivesItsCodeAndTheApiServersOwnMessage() {
        String conflict = "Operation cannot be fulfilled on kopfexamples.kopf.dev \"ex\": the object has been modified";
        assertThat(ApiErrors.summary(http(409, conflict), SERVER)).isEqualTo("HTTP 409: " + conflict);
    }

    @Test
    void aForbiddenRequestKeepsTheApiServersMessageFirstAndNamesTheMissingPermissionAfterIt() {
        String forbidden = "kopfexamples.kopf.dev \"ex\" is forbidden: User \"reader\" cannot patch resource"
                + " \"kopfexamples/status\" in API group \"kopf.dev\" in the namespace \"team-a\"";
        assertThat(ApiErrors.summary(http(403, forbidden), SERVER)).isEqualTo("HTTP 403: " + forbidden
                + " [RBAC: the operator lacks patch on kopfexamples/status (group kopf.dev) in namespace 'team-a';"
                + " kopf4j check-rbac lists what it lacks, kopf4j manifests generates the rules]");
        String clusterWide = "namespaces is forbidden: User \"reader\" cannot list resource \"namespaces\" in API group \"\""
                + " at the cluster scope";
        assertThat(ApiErrors.forbiddenHint(http(403, clusterWide))).isEqualTo(" [RBAC: the operator lacks list on namespaces"
                + " (group core) cluster-wide; kopf4j check-rbac lists what it lacks, kopf4j manifests generates the rules]");
        assertThat(ApiErrors.forbiddenHint(http(404, "not found"))).isEmpty();
    }

    @Test
    void anHttpFailureWithoutAMessageIsItsCodeAlone() {
        assertThat(ApiErrors.summary(http(429, null), SERVER)).isEqualTo("HTTP 429");
    }

    @Test
    void anHttpFailureInsideAWatchFailureIsFound() {
        WatcherException watch = new WatcherException("too old resource version", http(410, "too old resource version: 5 (9)"));
        assertThat(ApiErrors.summary(watch, SERVER)).isEqualTo("HTTP 410: too old resource version: 5 (9)");
    }

    @Test
    void aFailureBeforeAnyAnswerIsUnreachableAndAnHttpFailureOrAnotherIsNot() {
        assertThat(ApiErrors.unreachable(unreachable(new ClosedChannelException()))).isTrue();
        assertThat(ApiErrors.unreachable(http(503, "unavailable"))).isFalse();
        assertThat(ApiErrors.unreachable(new KubernetesClientException("not JSON", new IllegalArgumentException()))).isFalse();
    }

    @Test
    void aFailureWithoutIoNamesItsRootCauseWithoutTheAddress() {
        KubernetesClientException odd = new KubernetesClientException("An error has occurred.",
                new IllegalStateException("client closed"));
        assertThat(ApiErrors.summary(odd, SERVER)).isEqualTo("IllegalStateException: client closed");
    }

    @Test
    void aRealRefusedConnectionOfFabric8IsSummarised() {
        String closedPort = "https://127.0.0.1:1/";
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl(closedPort).withRequestRetryBackoffLimit(0).withTrustCerts(true).build()).build()) {
            Throwable failure = catchThrowable(() -> client.namespaces().list());
            assertThat(ApiErrors.summary(failure, closedPort)).isEqualTo("Connection refused (127.0.0.1:1)");
        }
    }
}
