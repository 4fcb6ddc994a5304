package io.kopf4j.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The namespace of the Leases that replicas share (leader election, sharding) when none is configured. */
class PodEnvironmentTest {
    private static final Map<String, String> NO_ENVIRONMENT = Map.of();

    @TempDir
    Path dir;

    @Test
    void theConfiguredNamespaceWins() throws Exception {
        Path pod = Files.writeString(dir.resolve("namespace"), "operators\n");
        assertThat(PodEnvironment.leaseNamespace("elections", List.of("team-a"), Map.of("POD_NAMESPACE", "downward"), pod))
                .isEqualTo("elections");
    }

    @Test
    void inAPodTheDownwardApisNamespaceThenTheServiceAccounts() throws Exception {
        Path pod = Files.writeString(dir.resolve("namespace"), "operators\n");
        assertThat(PodEnvironment.leaseNamespace(null, List.of("team-a"), Map.of("POD_NAMESPACE", "downward"), pod))
                .isEqualTo("downward");
        assertThat(PodEnvironment.leaseNamespace(null, List.of("team-a"), Map.of("POD_NAMESPACE", " "), pod))
                .isEqualTo("operators");
        assertThat(PodEnvironment.leaseNamespace(null, List.of("team-a"), NO_ENVIRONMENT, pod)).isEqualTo("operators");
    }

    @Test
    void outsideAClusterTheOneNamespaceServedIfItIsAName() {
        Path noPod = dir.resolve("absent");
        assertThat(PodEnvironment.leaseNamespace(null, List.of("team-a"), NO_ENVIRONMENT, noPod)).isEqualTo("team-a");
        assertThat(PodEnvironment.leaseNamespace(null, List.of("team-*"), NO_ENVIRONMENT, noPod)).isEqualTo("default");
        assertThat(PodEnvironment.leaseNamespace(null, List.of("team-a,team-b"), NO_ENVIRONMENT, noPod)).isEqualTo("default");
        assertThat(PodEnvironment.leaseNamespace(null, List.of("team-a", "team-b"), NO_ENVIRONMENT, noPod)).isEqualTo("default");
        assertThat(PodEnvironment.leaseNamespace(null, List.of(), NO_ENVIRONMENT, noPod)).isEqualTo("default");
    }
}
