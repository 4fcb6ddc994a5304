package io.kopf4j.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Garbage where a storage keeps its state is reported as unreadable, naming where; the multi-storages read on. */
class UnreadableStateTest {
    private static Map<String, Object> annotated(String key, String value) {
        return Map.of("metadata", Map.of("name", "x", "annotations", Map.of(key, value)));
    }

    @Test
    void garbageInTheDiffBaseAnnotationIsUnreadableNamingIt() {
        DiffBaseStorage storage = new AnnotationsDiffBaseStorage("kopf.zalando.org");
        for (String garbage : List.of("{not json", "[1, 2]", "42", "\"text\"")) {
            assertThatThrownBy(() -> storage.fetch(annotated("kopf.zalando.org/last-handled-configuration", garbage)))
                    .isInstanceOf(UnreadableStateException.class)
                    .hasMessageStartingWith("annotation 'kopf.zalando.org/last-handled-configuration' cannot be read (");
        }
    }

    @Test
    void garbageInAProgressAnnotationIsUnreadableNamingIt() {
        ProgressStorage storage = new AnnotationsProgressStorage("kopf.zalando.org", true);
        assertThatThrownBy(() -> storage.fetch("create", annotated("kopf.zalando.org/create", "garbage")))
                .isInstanceOf(UnreadableStateException.class)
                .hasMessageStartingWith("annotation 'kopf.zalando.org/create' cannot be read (");
    }

    @Test
    void garbageInTheStatusDiffBaseIsUnreadableNamingTheField() {
        Map<String, Object> body = Map.of("status", Map.of("kopf", Map.of("last-handled-configuration", "{")));
        assertThatThrownBy(() -> new StatusDiffBaseStorage().fetch(body)).isInstanceOf(UnreadableStateException.class)
                .hasMessageStartingWith("field 'status.kopf.last-handled-configuration' cannot be read (");
    }

    @Test
    void aMultiStorageReadsTheNextStorageAndReportsOnlyWhenNoneHasAReadableState() {
        DiffBaseStorage annotations = new AnnotationsDiffBaseStorage("kopf.zalando.org");
        DiffBaseStorage multi = new MultiDiffBaseStorage(List.of(annotations, new StatusDiffBaseStorage()));
        Map<String, Object> both = Map.of("metadata", Map.of("annotations",
                        Map.of("kopf.zalando.org/last-handled-configuration", "garbage")),
                "status", Map.of("kopf", Map.of("last-handled-configuration", "{\"spec\":{\"a\":1}}")));

        assertThat(multi.fetch(both)).isEqualTo(Map.of("spec", Map.of("a", 1)));
        assertThatThrownBy(() -> multi.fetch(annotated("kopf.zalando.org/last-handled-configuration", "garbage")))
                .isInstanceOf(UnreadableStateException.class);
        assertThat(multi.fetch(Map.of("metadata", Map.of()))).isNull();
        // The smart progress storage: garbage in the annotation, nothing in the status.
        assertThatThrownBy(() -> MultiProgressStorage.smart("kopf.zalando.org").fetch("create",
                annotated("kopf.zalando.org/create", "garbage"))).isInstanceOf(UnreadableStateException.class);
    }
}
