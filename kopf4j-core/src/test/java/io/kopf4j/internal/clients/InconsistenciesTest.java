package io.kopf4j.internal.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Patch;
import io.kopf4j.internal.structs.Json;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kopf's "Merge-patching finished with inconsistencies" text: its diff of the patch against the result. */
class InconsistenciesTest {
    @Test
    void whatThePatchSetAndTheResultLacksIsWrittenAsKopfsDiff() {
        assertThat(ObjectPatcher.inconsistencies(Map.of("status", Map.of("create", "pruned")), Map.of("status", Map.of())))
                .isEqualTo("(('remove', ('status', 'create'), 'pruned', None),)");
        assertThat(ObjectPatcher.inconsistencies(Map.of("status", Map.of("phase", "Ready", "size", 2)),
                Map.of("status", Map.of("phase", "Pending", "size", 2))))
                .isEqualTo("(('change', ('status', 'phase'), 'Ready', 'Pending'),)");
        assertThat(ObjectPatcher.inconsistencies(Map.of("status", Map.of("b", true)), Map.of()))
                .isEqualTo("(('remove', ('status',), {'b': True}, None),)");
    }

    @Test
    void whatTheApiServerDropsWhenEmptyAndEmptyMapsAreNoInconsistency() {
        assertThat(ObjectPatcher.inconsistencies(Map.of("metadata", Map.of("labels", Map.of(), "finalizers", List.of())),
                Map.of("metadata", Map.of()))).isNull();
        assertThat(ObjectPatcher.inconsistencies(Map.of("status", Map.of()), Map.of())).isNull();
        assertThat(ObjectPatcher.inconsistencies(Map.of("status", Map.of("x", 1)), Map.of("status", Map.of("x", 1)))).isNull();
    }

    record Summary(String phase, Integer replicas, Instant since) {
    }

    @Test
    void aRecordPutIntoASectionIsComparedWithTheAnswerAsTheJsonItWasSentAs() {
        Patch put = new Patch();
        put.status().put("summary", new Summary("Ready", null, Instant.parse("2026-11-29T10:00:00Z")));
        Patch merged = new Patch().status(Map.of("summary", new Summary("Ready", null, Instant.parse("2026-11-29T10:00:00Z"))));
        Map<String, Object> answer = Json.parseMap("{\"status\":{\"summary\":{\"phase\":\"Ready\",\"since\":\"2026-11-29T10:00:00Z\"}}}");

        assertThat(put.toMap()).isEqualTo(merged.toMap()).isEqualTo(answer);
        assertThat(ObjectPatcher.inconsistencies(put.toMap(), answer)).isNull();
        assertThat(ObjectPatcher.inconsistencies(put.toMap(), Json.parseMap("{\"status\":{\"summary\":{\"phase\":\"Ready\"}}}")))
                .isEqualTo("(('remove', ('status', 'summary', 'since'), '2026-11-29T10:00:00Z', None),)");
    }
}
