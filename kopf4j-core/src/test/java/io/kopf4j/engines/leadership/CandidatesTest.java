package io.kopf4j.engines.leadership;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Lease's namespace when none is configured, and the candidates' identities. */
class CandidatesTest {
    @TempDir
    Path dir;

    @Test
    void theConfiguredNamespaceWins() throws Exception {
        Path pod = Files.writeString(dir.resolve("namespace"), "operators\n");
        assertThat(Candidates.leaseNamespace("elections", List.of("team-a"), pod)).isEqualTo("elections");
    }

    @Test
    void inAPodThePodsOwnNamespace() throws Exception {
        Path pod = Files.writeString(dir.resolve("namespace"), "operators\n");
        assertThat(Candidates.leaseNamespace(null, List.of("team-a"), pod)).isEqualTo("operators");
    }

    @Test
    void outsideAClusterTheOneNamespaceServedIfItIsAName() {
        Path noPod = dir.resolve("absent");
        assertThat(Candidates.leaseNamespace(null, List.of("team-a"), noPod)).isEqualTo("team-a");
        assertThat(Candidates.leaseNamespace(null, List.of("team-*"), noPod)).isEqualTo("default");
        assertThat(Candidates.leaseNamespace(null, List.of("team-a,team-b"), noPod)).isEqualTo("default");
        assertThat(Candidates.leaseNamespace(null, List.of("team-a", "team-b"), noPod)).isEqualTo("default");
        assertThat(Candidates.leaseNamespace(null, List.of(), noPod)).isEqualTo("default");
    }

    @Test
    void everyCandidateIsNewEvenOnTheSameHost() {
        String first = Candidates.identity();
        String second = Candidates.identity();
        assertThat(first).matches(".+_[0-9a-f-]{36}");
        assertThat(second).isNotEqualTo(first);
        assertThat(second.substring(0, second.lastIndexOf('_'))).isEqualTo(first.substring(0, first.lastIndexOf('_')));
    }
}
