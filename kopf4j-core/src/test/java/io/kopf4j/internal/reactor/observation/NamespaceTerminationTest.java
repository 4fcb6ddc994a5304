package io.kopf4j.internal.reactor.observation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kopf's "termination pending" lines: what holds a namespace being deleted, from its True conditions. */
class NamespaceTerminationTest {
    @Test
    void theTrueConditionsOfANamespaceBeingDeletedAreItsBlockers() {
        Map<String, Object> terminating = Map.of("metadata", Map.of("name", "shop", "deletionTimestamp", "2026-11-29T10:00:00Z"),
                "status", Map.of("phase", "Terminating", "conditions", List.of(
                        Map.of("type", "NamespaceContentRemaining", "status", "True", "reason", "SomeResourcesRemain",
                                "message", "Some resources are remaining: kopfexamples.kopf.dev has 1 resource instances"),
                        Map.of("type", "NamespaceDeletionDiscoveryFailure", "status", "False", "reason", "ResourcesDiscovered"),
                        Map.of("type", "NamespaceFinalizersRemaining", "status", "True", "reason", "SomeFinalizersRemain"))));
        assertThat(Observer.terminationBlockers(terminating)).containsExactly(
                "SomeResourcesRemain: Some resources are remaining: kopfexamples.kopf.dev has 1 resource instances",
                "SomeFinalizersRemain: ");
    }

    @Test
    void aNamespaceNotBeingDeletedOrWithoutConditionsHasNone() {
        assertThat(Observer.terminationBlockers(Map.of("metadata", Map.of("name", "shop"),
                "status", Map.of("conditions", List.of(Map.of("status", "True")))))).isEmpty();
        assertThat(Observer.terminationBlockers(Map.of("metadata", Map.of("deletionTimestamp", "x")))).isEmpty();
        assertThat(Observer.terminationBlockers(Map.of("metadata", "garbage", "status", 7))).isEmpty();
    }
}
