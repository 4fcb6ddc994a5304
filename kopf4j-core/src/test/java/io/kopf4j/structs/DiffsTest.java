package io.kopf4j.structs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Diff;
import io.kopf4j.DiffItem;
import io.kopf4j.DiffOperation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DiffsTest {
    @Test
    void equalValuesHaveNoDiff() {
        assertThat(Diffs.between(Map.of("spec", Map.of("a", 1)), Map.of("spec", Map.of("a", 1.0))).isEmpty()).isTrue();
    }

    @Test
    void absentOldValueIsOneAdditionOfTheWhole() {
        Diff diff = Diffs.between(null, Map.of("spec", Map.of("a", 1)));
        assertThat(diff.items()).containsExactly(new DiffItem(DiffOperation.ADD, List.of(), null, Map.of("spec", Map.of("a", 1))));
    }

    @Test
    void mapsAreRecursedIntoAddedThenRemovedThenChanged() {
        Map<String, Object> old = Map.of("spec", Map.of("size", "1G", "gone", "x"));
        Map<String, Object> current = Map.of("spec", Map.of("size", "2G", "fresh", true));
        assertThat(Diffs.between(old, current).items()).containsExactly(
                new DiffItem(DiffOperation.ADD, List.of("spec", "fresh"), null, true),
                new DiffItem(DiffOperation.REMOVE, List.of("spec", "gone"), "x", null),
                new DiffItem(DiffOperation.CHANGE, List.of("spec", "size"), "1G", "2G"));
    }

    @Test
    void listsAreComparedAsWholeValues() {
        Diff diff = Diffs.between(Map.of("items", List.of(1, 2)), Map.of("items", List.of(1, 3)));
        assertThat(diff.items()).containsExactly(new DiffItem(DiffOperation.CHANGE, List.of("items"), List.of(1, 2), List.of(1, 3)));
    }

    @Test
    void printsKopfTuplesAsJson() {
        Diff diff = Diffs.between(Map.of("spec", Map.of("size", "1G")), Map.of("spec", Map.of("size", "2G")));
        assertThat(diff).hasToString("[[\"change\",[\"spec\",\"size\"],\"1G\",\"2G\"]]");
    }
}
