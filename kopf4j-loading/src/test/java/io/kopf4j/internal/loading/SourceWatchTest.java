package io.kopf4j.internal.loading;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceWatchTest {
    @TempDir
    Path dir;
    private final List<List<Path>> reports = new CopyOnWriteArrayList<>();
    private SourceWatch watch;

    @AfterEach
    void stopWatching() {
        watch.close();
    }

    private void watch(Path source) {
        watch = SourceWatch.start(List.of(source), reports::add);
    }

    @Test
    void anUnchangedSaveAndEditorsScratchFilesAreNoChange() throws Exception {
        Path java = Files.createDirectories(dir.resolve("src/main/java/com/example"));
        Path handlers = Files.writeString(java.resolve("Handlers.java"), "class Handlers {}");
        Path helper = Files.writeString(java.resolve("Helper.java"), "class Helper {}");
        watch(handlers);
        Files.writeString(handlers, "class Handlers {}");
        Files.writeString(java.resolve(".Handlers.java.swp"), "swap");
        Files.writeString(java.resolve("Handlers.java~"), "backup");
        Files.writeString(java.resolve("#Handlers.java#"), "autosave");
        Files.writeString(helper, "class Helper { int changed; }");
        await().until(() -> !reports.isEmpty());
        assertThat(reports.getFirst()).as("only the changed file, in the first report").containsExactly(helper);
    }

    @Test
    void aMavenProjectsResourcesAndNewSubdirectoriesAreWatched() throws Exception {
        Path java = Files.createDirectories(dir.resolve("src/main/java"));
        Path resources = Files.createDirectories(dir.resolve("src/main/resources"));
        Path handlers = Files.writeString(java.resolve("Handlers.java"), "class Handlers {}");
        Path config = Files.writeString(resources.resolve("config.yaml"), "a: 1");
        watch(handlers);
        Files.writeString(config, "a: 2");
        await().until(() -> reports.size() == 1);
        assertThat(reports.getFirst()).containsExactly(config);

        Path helper = Files.createDirectories(java.resolve("sub")).resolve("Helper.java");
        Files.writeString(helper, "class Helper {}");
        await().until(() -> reports.size() == 2);
        assertThat(reports.get(1)).containsExactly(helper);

        Files.writeString(helper, "class Helper { int changed; }");   // seen only if the new directory is watched
        await().until(() -> reports.size() == 3);
        assertThat(reports.get(2)).containsExactly(helper);
    }

    @Test
    void aSourceOutsideAMavenLayoutIsWatchedWithoutItsNeighbours() throws Exception {
        Path handlers = Files.writeString(dir.resolve("Handlers.java"), "class Handlers {}");
        watch(handlers);
        Files.writeString(dir.resolve("notes.txt"), "not a source");
        Files.writeString(handlers, "class Handlers { int changed; }");
        await().until(() -> !reports.isEmpty());
        assertThat(reports.getFirst()).containsExactly(handlers);
    }
}
