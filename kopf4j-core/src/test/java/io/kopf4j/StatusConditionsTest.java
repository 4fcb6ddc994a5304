package io.kopf4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusConditionsTest {
    private static final Clock FIRST = Clock.fixed(Instant.parse("2026-11-29T08:00:00.750Z"), ZoneOffset.UTC);
    private static final Clock LATER = Clock.fixed(Instant.parse("2026-11-29T08:05:00Z"), ZoneOffset.UTC);

    private static Body body(long generation, Object conditions) {
        Map<String, Object> status = new LinkedHashMap<>();
        if (conditions != null) {
            status.put("conditions", conditions);
        }
        return new Body(Map.of("metadata", Map.of("name", "db", "generation", generation), "status", status));
    }

    /** The list the patch carries, as the object would have it after the PATCH. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> written(Patch patch) {
        return (List<Map<String, Object>>) patch.status().get("conditions");
    }

    @Test
    void aNewConditionGetsItsTransitionTimeAtSecondsAndTheGeneration() {
        Patch patch = new Patch();
        assertThat(StatusConditions.of(body(4, null), patch, FIRST).set("Ready", false, "ReplicasNotReady", "2 of 3")).isTrue();
        assertThat(written(patch)).containsExactly(Map.of("type", "Ready", "status", "False", "observedGeneration", 4L,
                "reason", "ReplicasNotReady", "message", "2 of 3", "lastTransitionTime", "2026-11-29T08:00:00Z"));
    }

    @Test
    void onlyAStatusChangeMovesTheTransitionTime() {
        Patch first = new Patch();
        StatusConditions.of(body(4, null), first, FIRST).set("Ready", false, "ReplicasNotReady", "2 of 3");

        Patch reworded = new Patch();
        StatusConditions.of(body(5, written(first)), reworded, LATER).set("Ready", false, "Scaling", "3 of 4");
        assertThat(written(reworded).get(0)).containsEntry("lastTransitionTime", "2026-11-29T08:00:00Z")
                .containsEntry("reason", "Scaling").containsEntry("observedGeneration", 5L);

        Patch flipped = new Patch();
        StatusConditions.of(body(5, written(reworded)), flipped, LATER).set("Ready", true, "AllReady", "");
        assertThat(written(flipped).get(0)).containsEntry("lastTransitionTime", "2026-11-29T08:05:00Z").containsEntry("status", "True");
    }

    @Test
    void settingWhatTheObjectSaysWritesNothing() {
        Patch first = new Patch();
        StatusConditions.of(body(4, null), first, FIRST).set("Ready", true, "AllReady", "");
        Patch again = new Patch();
        StatusConditions conditions = StatusConditions.of(body(4, written(first)), again, LATER);
        assertThat(conditions.set("Ready", true, "AllReady", "")).isFalse();
        assertThat(conditions.changed()).isFalse();
        assertThat(again.isEmpty()).isTrue();
    }

    @Test
    void otherConditionsStayInTheirOrderAndGarbageIsDropped() {
        List<Object> stored = List.of(Map.of("type", "Synced", "status", "True", "reason", "Ok", "message", "",
                        "lastTransitionTime", "2026-01-01T00:00:00Z"),
                "garbage", Map.of("status", "True"), Map.of("type", "Synced", "status", "False"),
                Map.of("type", "Ready", "status", "False", "reason", "Old", "message", "", "lastTransitionTime", "2026-01-01T00:00:00Z"));
        Patch patch = new Patch();
        StatusConditions conditions = StatusConditions.of(body(1, stored), patch, FIRST);
        assertThat(conditions.isTrue("Synced")).isTrue();
        conditions.set("Ready", true, "AllReady", "");
        assertThat(written(patch)).extracting(condition -> condition.get("type")).containsExactly("Synced", "Ready");
        assertThat(written(patch).get(0)).containsEntry("lastTransitionTime", "2026-01-01T00:00:00Z");
        assertThat(conditions.remove("Synced")).isTrue();
        assertThat(written(patch)).extracting(condition -> condition.get("type")).containsExactly("Ready");
        assertThat(conditions.remove("Absent")).isFalse();
    }

    @Test
    void twoOnOnePatchKeepEachOthersChanges() {
        Patch patch = new Patch();
        StatusConditions.of(body(1, null), patch, FIRST).set("Ready", false, "Starting", "");
        StatusConditions.of(body(1, null), patch, FIRST).set("Synced", true, "Applied", "");   // e.g. a sub-handler's
        assertThat(written(patch)).extracting(condition -> condition.get("type")).containsExactly("Ready", "Synced");
    }

    @Test
    void storedNullsAreReadNotThrown() {
        Map<String, Object> stored = new LinkedHashMap<>(Map.of("type", "Ready", "status", "True"));
        stored.put("message", null);
        StatusConditions conditions = StatusConditions.of(body(1, List.of(stored)), new Patch(), FIRST);
        assertThat(conditions.get("Ready")).get().satisfies(condition -> assertThat(condition).containsEntry("message", null));
        assertThat(conditions.list()).hasSize(1);
    }

    @Test
    void reasonsFromElsewhereAreMadeValid() {
        assertThat(StatusConditions.reason("MinimumReplicasAvailable", "NotReady")).isEqualTo("MinimumReplicasAvailable");
        assertThat(StatusConditions.reason("minimum replicas unavailable", "NotReady")).isEqualTo("MinimumReplicasUnavailable");
        assertThat(StatusConditions.reason("42 -- !", "NotReady")).isEqualTo("NotReady");
        assertThat(StatusConditions.reason(null, "NotReady")).isEqualTo("NotReady");
    }

    @Test
    void withoutObservedGenerationNoneIsWritten() {
        Patch patch = new Patch();
        StatusConditions.of(body(7, null), patch, FIRST).withoutObservedGeneration().set("Ready", StatusConditions.UNKNOWN, "Starting", null);
        assertThat(written(patch).get(0)).doesNotContainKey("observedGeneration").containsEntry("message", "")
                .containsEntry("status", "Unknown");
    }

    @Test
    void whatTheApiWouldRejectFailsNamingTheCondition() {
        StatusConditions conditions = StatusConditions.of(body(1, null), new Patch(), FIRST);
        assertThatThrownBy(() -> conditions.set("Ready", true, "not a word", ""))
                .hasMessageStartingWith("condition Ready: reason must be a CamelCase word");
        assertThatThrownBy(() -> conditions.set("Ready", "yes", "AllReady", ""))
                .hasMessage("condition Ready: status must be True, False or Unknown, got 'yes'");
        assertThatThrownBy(() -> conditions.set(" ", true, "AllReady", "")).hasMessageStartingWith("condition type must be a qualified name");
        assertThatThrownBy(() -> conditions.set("Ready Now", true, "AllReady", "")).hasMessageStartingWith("condition type must be a qualified name");
        assertThat(conditions.set("example.com/Backed-up", true, "AllReady", "")).isTrue();
        Patch patch = new Patch();
        StatusConditions.of(body(1, null), patch, FIRST).set("Ready", false, "Huge", "x".repeat(40_000));
        assertThat((String) written(patch).get(0).get("message")).hasSize(32768);
    }
}
