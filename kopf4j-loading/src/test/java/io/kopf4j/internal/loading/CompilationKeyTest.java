package io.kopf4j.internal.loading;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompilationKeyTest {
    private static final List<String> OPTIONS = List.of("-parameters");

    @TempDir
    Path dir;
    private Path source;
    private Path jar;
    private String classpath;

    @BeforeEach
    void inputs() throws IOException {
        source = Files.writeString(dir.resolve("Handlers.java"), "public class Handlers {}\n");
        jar = Files.writeString(dir.resolve("lib.jar"), "a jar");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.parse("2025-01-01T00:00:00Z")));
        classpath = jar + File.pathSeparator + Files.createDirectories(dir.resolve("classes"));
    }

    private String key() throws IOException {
        return CompilationKey.of(List.of(source), OPTIONS, classpath);
    }

    @Test
    void theSameInputsGiveTheSameKeyOfSha256InHex() throws IOException {
        assertThat(key()).matches("[0-9a-f]{64}").isEqualTo(key());
    }

    @Test
    void anotherSourceTextGivesAnotherKey() throws IOException {
        String before = key();
        Files.writeString(source, "public class Handlers { int changed; }\n");
        assertThat(key()).isNotEqualTo(before);
    }

    @Test
    void theSameTextElsewhereGivesAnotherKey() throws IOException {
        String before = key();
        source = Files.copy(source, Files.createDirectories(dir.resolve("elsewhere")).resolve("Handlers.java"));
        assertThat(key()).isNotEqualTo(before);
    }

    @Test
    void otherOptionsOrClasspathGiveAnotherKey() throws IOException {
        String before = key();
        assertThat(CompilationKey.of(List.of(source), List.of("-parameters", "-g"), classpath)).isNotEqualTo(before);
        assertThat(CompilationKey.of(List.of(source), OPTIONS, classpath + File.pathSeparator + "more.jar")).isNotEqualTo(before);
    }

    @Test
    void aJarRebuiltInPlaceGivesAnotherKey() throws IOException {
        String before = key();
        Files.setLastModifiedTime(jar, FileTime.from(Instant.parse("2025-01-01T00:00:01Z")));
        String touched = key();
        assertThat(touched).isNotEqualTo(before);
        Files.writeString(jar, "a larger jar");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.parse("2025-01-01T00:00:01Z")));
        assertThat(key()).as("the size alone").isNotEqualTo(touched);
    }

    @Test
    void fieldsDoNotRunIntoEachOther() throws IOException {
        assertThat(CompilationKey.of(List.of(source), List.of("-a", "b"), classpath))
                .isNotEqualTo(CompilationKey.of(List.of(source), List.of("-ab"), classpath));
    }
}
