package io.kopf4j.internal.intents;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NamespacePatternsTest {
    @Test
    void globsListsAndNegationsAsKopf() {
        NamespacePatterns patterns = new NamespacePatterns(List.of("ns-*,!ns-123,ns-1234"));
        assertThat(patterns.matches("ns-1")).isTrue();
        assertThat(patterns.matches("ns-123")).isFalse();
        assertThat(patterns.matches("ns-1234")).isTrue();
        assertThat(patterns.matches("other")).isFalse();
    }

    @Test
    void aLeadingNegationServesEverythingElse() {
        NamespacePatterns patterns = new NamespacePatterns(List.of("!kube-*"));
        assertThat(patterns.matches("default")).isTrue();
        assertThat(patterns.matches("kube-system")).isFalse();
    }

    @Test
    void anyOfSeveralPatternsServes() {
        NamespacePatterns patterns = new NamespacePatterns(List.of("team-?", "default"));
        assertThat(patterns.matches("team-a")).isTrue();
        assertThat(patterns.matches("team-ab")).isFalse();
        assertThat(patterns.matches("default")).isTrue();
        assertThat(patterns.literal()).isFalse();
        assertThat(patterns.literals()).containsExactly("default");
    }

    @Test
    void exactNamesNeedNoObservation() {
        NamespacePatterns patterns = new NamespacePatterns(List.of("a", "b"));
        assertThat(patterns.literal()).isTrue();
        assertThat(patterns.clusterWide()).isFalse();
        assertThat(new NamespacePatterns(List.of()).clusterWide()).isTrue();
        assertThat(new NamespacePatterns(List.of("a,team-*", "b,!b")).literals())
                .as("exact parts of comma-separated patterns, unless negated").containsExactly("a");
    }
}
