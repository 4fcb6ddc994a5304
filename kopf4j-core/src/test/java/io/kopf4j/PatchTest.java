package io.kopf4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PatchTest {
    record DatabaseStatus(String phase, Integer readyReplicas, Instant since, List<String> endpoints) {
    }

    /** A POJO as users write them: getters and setters. */
    public static class Scaling {
        private int replicas;

        public int getReplicas() {
            return replicas;
        }

        public void setReplicas(int replicas) {
            this.replicas = replicas;
        }
    }

    @Test
    void statusMergesTheFieldsOfARecordLeavingOutNulls() {
        Patch patch = new Patch();
        patch.status().put("phase", "Pending");
        patch.status().put("message", "kept");
        patch.status(new DatabaseStatus("Ready", 3, Instant.parse("2024-05-01T10:00:00Z"), null));
        assertThat(patch.toMap()).isEqualTo(Map.of("status", Map.of(
                "phase", "Ready", "readyReplicas", 3, "since", "2024-05-01T10:00:00Z", "message", "kept")));
    }

    @Test
    void specMergesTheFieldsOfAPojo() {
        Scaling scaling = new Scaling();
        scaling.setReplicas(5);
        assertThat(new Patch().spec(scaling).toMap()).isEqualTo(Map.of("spec", Map.of("replicas", 5)));
    }

    @Test
    void aValueWithoutFieldsIsRejected() {
        assertThatThrownBy(() -> new Patch().status("Ready")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected a record, a POJO or a map with fields, but got a String");
    }
}
