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

    // The cases of docs/handlers.md#diffs: a field handler's diff, relative to its field.

    @Test
    void fieldHandlersSeeTheirFieldsItemsWithRelativePathsAndNothingElse() {
        Map<String, Object> old = Map.of("metadata", Map.of("labels", Map.of("owner", "me", "tier", "web")),
                "spec", Map.of("size", "1G"));
        Map<String, Object> current = Map.of("metadata", Map.of("labels", Map.of("application", "some-app", "tier", "db")),
                "spec", Map.of("size", "2G"));
        assertThat(Diffs.reduce(Diffs.between(old, current), List.of("metadata", "labels")).items()).containsExactly(
                new DiffItem(DiffOperation.ADD, List.of("application"), null, "some-app"),
                new DiffItem(DiffOperation.REMOVE, List.of("owner"), "me", null),
                new DiffItem(DiffOperation.CHANGE, List.of("tier"), "web", "db"));
    }

    @Test
    void aFieldThatAppearsOrVanishesWholeIsOneItemWithTheEmptyPath() {
        Map<String, Object> without = Map.of("spec", Map.of("size", "1G"));
        Map<String, Object> with = Map.of("spec", Map.of("size", "1G", "database", Map.of("host", "a")));
        List<String> field = List.of("spec", "database");
        assertThat(Diffs.reduce(Diffs.between(without, with), field).items())
                .containsExactly(new DiffItem(DiffOperation.ADD, List.of(), null, Map.of("host", "a")));
        assertThat(Diffs.reduce(Diffs.between(with, without), field).items())
                .containsExactly(new DiffItem(DiffOperation.REMOVE, List.of(), Map.of("host", "a"), null));
    }

    @Test
    void atCreationAFieldHandlerSeesItsWholeFieldAdded() {
        Diff creation = Diffs.between(null, Map.of("spec", Map.of("size", "1G")));
        assertThat(Diffs.reduce(creation, List.of("spec", "size")).items())
                .containsExactly(new DiffItem(DiffOperation.ADD, List.of(), null, "1G"));
    }

    @Test
    void aScalarFieldThatChangesIsOneChangeWithTheEmptyPath() {
        Diff diff = Diffs.between(Map.of("spec", Map.of("size", "1G")), Map.of("spec", Map.of("size", "2G")));
        assertThat(Diffs.reduce(diff, List.of("spec", "size")).items())
                .containsExactly(new DiffItem(DiffOperation.CHANGE, List.of(), "1G", "2G"));
    }
}
