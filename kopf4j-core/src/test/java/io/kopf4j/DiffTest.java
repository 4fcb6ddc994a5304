package io.kopf4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DiffTest {
    @Test
    void equalValuesHaveNoDiff() {
        assertThat(Diff.between(Map.of("spec", Map.of("a", 1)), Map.of("spec", Map.of("a", 1.0))).isEmpty()).isTrue();
    }

    @Test
    void absentOldValueIsOneAdditionOfTheWhole() {
        Diff diff = Diff.between(null, Map.of("spec", Map.of("a", 1)));
        assertThat(diff.items()).containsExactly(new DiffItem(DiffOperation.ADD, List.of(), null, Map.of("spec", Map.of("a", 1))));
    }

    @Test
    void mapsAreRecursedIntoAddedThenRemovedThenChanged() {
        Map<String, Object> old = Map.of("spec", Map.of("size", "1G", "gone", "x"));
        Map<String, Object> current = Map.of("spec", Map.of("size", "2G", "fresh", true));
        assertThat(Diff.between(old, current).items()).containsExactly(
                new DiffItem(DiffOperation.ADD, List.of("spec", "fresh"), null, true),
                new DiffItem(DiffOperation.REMOVE, List.of("spec", "gone"), "x", null),
                new DiffItem(DiffOperation.CHANGE, List.of("spec", "size"), "1G", "2G"));
    }

    @Test
    void listsAreComparedAsWholeValues() {
        Diff diff = Diff.between(Map.of("items", List.of(1, 2)), Map.of("items", List.of(1, 3)));
        assertThat(diff.items()).containsExactly(new DiffItem(DiffOperation.CHANGE, List.of("items"), List.of(1, 2), List.of(1, 3)));
    }

    @Test
    void printsKopfTuplesAsJson() {
        Diff diff = Diff.between(Map.of("spec", Map.of("size", "1G")), Map.of("spec", Map.of("size", "2G")));
        assertThat(diff).hasToString("[[\"change\",[\"spec\",\"size\"],\"1G\",\"2G\"]]");
    }

    // The cases of docs/handlers.md#diffs: a field handler's diff, relative to its field.

    @Test
    void fieldHandlersSeeTheirFieldsItemsWithRelativePathsAndNothingElse() {
        Map<String, Object> old = Map.of("metadata", Map.of("labels", Map.of("owner", "me", "tier", "web")),
                "spec", Map.of("size", "1G"));
        Map<String, Object> current = Map.of("metadata", Map.of("labels", Map.of("application", "some-app", "tier", "db")),
                "spec", Map.of("size", "2G"));
        assertThat(Diff.between(old, current).reduce(List.of("metadata", "labels")).items()).containsExactly(
                new DiffItem(DiffOperation.ADD, List.of("application"), null, "some-app"),
                new DiffItem(DiffOperation.REMOVE, List.of("owner"), "me", null),
                new DiffItem(DiffOperation.CHANGE, List.of("tier"), "web", "db"));
    }

    @Test
    void aFieldThatAppearsOrVanishesWholeIsOneItemWithTheEmptyPath() {
        Map<String, Object> without = Map.of("spec", Map.of("size", "1G"));
        Map<String, Object> with = Map.of("spec", Map.of("size", "1G", "database", Map.of("host", "a")));
        List<String> field = List.of("spec", "database");
        assertThat(Diff.between(without, with).reduce(field).items())
                .containsExactly(new DiffItem(DiffOperation.ADD, List.of(), null, Map.of("host", "a")));
        assertThat(Diff.between(with, without).reduce(field).items())
                .containsExactly(new DiffItem(DiffOperation.REMOVE, List.of(), Map.of("host", "a"), null));
    }

    @Test
    void atCreationAFieldHandlerSeesItsWholeFieldAdded() {
        Diff creation = Diff.between(null, Map.of("spec", Map.of("size", "1G")));
        assertThat(creation.reduce(List.of("spec", "size")).items())
                .containsExactly(new DiffItem(DiffOperation.ADD, List.of(), null, "1G"));
    }

    @Test
    void aScalarFieldThatChangesIsOneChangeWithTheEmptyPath() {
        Diff diff = Diff.between(Map.of("spec", Map.of("size", "1G")), Map.of("spec", Map.of("size", "2G")));
        assertThat(diff.reduce(List.of("spec", "size")).items())
                .containsExactly(new DiffItem(DiffOperation.CHANGE, List.of(), "1G", "2G"));
    }
}
