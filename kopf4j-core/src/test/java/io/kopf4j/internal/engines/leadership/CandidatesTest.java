package io.kopf4j.internal.engines.leadership;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The candidates' identities (the Lease's namespace: PodEnvironmentTest). */
class CandidatesTest {
    @Test
    void everyCandidateIsNewEvenOnTheSameHost() {
        String first = Candidates.identity();
        String second = Candidates.identity();
        assertThat(first).matches(".+_[0-9a-f-]{36}");
        assertThat(second).isNotEqualTo(first);
        assertThat(second.substring(0, second.lastIndexOf('_'))).isEqualTo(first.substring(0, first.lastIndexOf('_')));
    }
}
