package io.kopf4j.internal.loading;

import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.OperatorException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Handler sources compiled once, then read from the cache until they change. */
class SourceClassesTest {
    private static final String FIRST = "public class Handlers { public String first() { return \"one\"; } }\n";
    private static final String SECOND = "public class Handlers { public String second() { return \"two\"; } }\n";

    @TempDir
    Path dir;

    private Path cacheRoot() {
        return dir.resolve("cache");
    }

    private List<Class<?>> load(Path source) {
        return SourceClasses.load(List.of(source), getClass().getClassLoader(), new ClassCache(cacheRoot()));
    }

    private static final String READER = """
            public class Handlers {
                public static String read(String name) throws java.io.IOException {
                    try (var in = Handlers.class.getResourceAsStream(name)) {
                        return in == null ? null : new String(in.readAllBytes());
                    }
                }
            }
            """;

    private static Object read(Class<?> handlers, String name) throws ReflectiveOperationException {
        return handlers.getMethod("read", String.class).invoke(null, name);
    }

    @Test
    void aSourceReadsTheFilesNextToItAsResources() throws IOException, ReflectiveOperationException {
        Path source = Files.writeString(dir.resolve("Handlers.java"), READER);
        Files.writeString(dir.resolve("pvc.yaml"), "kind: PersistentVolumeClaim\n");

        Class<?> handlers = load(source).getFirst();
        assertThat(read(handlers, "/pvc.yaml")).isEqualTo("kind: PersistentVolumeClaim\n");
        assertThat(read(handlers, "pvc.yaml")).isEqualTo("kind: PersistentVolumeClaim\n");
        assertThat(read(handlers, "/absent.yaml")).isNull();
    }

    @Test
    void aSourceInAMavenLayoutReadsItsResourcesDirectory() throws IOException, ReflectiveOperationException {
        Path sources = Files.createDirectories(dir.resolve("app/src/main/java"));
        Path resources = Files.createDirectories(dir.resolve("app/src/main/resources/templates"));
        Files.writeString(resources.resolve("pvc.yaml"), "kind: PersistentVolumeClaim\n");
        Path source = Files.writeString(sources.resolve("Handlers.java"), READER);

        Class<?> handlers = load(source).getFirst();
        assertThat(read(handlers, "/templates/pvc.yaml")).isEqualTo("kind: PersistentVolumeClaim\n");
    }

    @Test
    void aChangedSourceIsCompiledAgainUnderAnotherKey() throws IOException {
        Path source = Files.writeString(dir.resolve("Handlers.java"), FIRST);
        assertThat(load(source)).singleElement().satisfies(handlers -> assertThat(handlers.getMethod("first")).isNotNull());
        assertThat(entries()).hasSize(1);

        Files.writeString(source, SECOND);
        assertThat(load(source)).singleElement().satisfies(handlers -> assertThat(handlers.getMethod("second")).isNotNull());
        assertThat(entries()).hasSize(2);
    }

    @Test
    void anUnchangedSourceIsReadFromTheCacheNotCompiled() throws IOException {
        Path source = Files.writeString(dir.resolve("Handlers.java"), FIRST);
        load(source);
        Path firstEntry = entries().getFirst();
        Files.writeString(source, SECOND);
        load(source);
        Path secondEntry = entries().stream().filter(entry -> !entry.equals(firstEntry)).findFirst().orElseThrow();
        // The first source's entry now holds the second's classes: only a load from the cache can return them.
        Files.copy(secondEntry.resolve("Handlers.class"), firstEntry.resolve("Handlers.class"), REPLACE_EXISTING);
        Files.copy(secondEntry.resolve("SHA256SUMS"), firstEntry.resolve("SHA256SUMS"), REPLACE_EXISTING);

        Files.writeString(source, FIRST);
        assertThat(load(source)).singleElement().satisfies(handlers -> assertThat(handlers.getMethod("second")).isNotNull());
    }

    @Test
    void aDamagedEntryIsCompiledAgainAndReplaced() throws IOException {
        Path source = Files.writeString(dir.resolve("Handlers.java"), FIRST);
        load(source);
        Path classFile = entries().getFirst().resolve("Handlers.class");
        byte[] compiled = Files.readAllBytes(classFile);
        Files.write(classFile, new byte[]{(byte) 0xCA, (byte) 0xFE});

        assertThat(load(source)).singleElement().satisfies(handlers -> assertThat(handlers.getMethod("first")).isNotNull());
        assertThat(Files.readAllBytes(classFile)).isEqualTo(compiled);
    }

    @Test
    void compileErrorsAreNotCachedAndReadAsBefore() throws IOException {
        Path source = Files.writeString(dir.resolve("Broken.java"), "public class Broken { void f() { undefined(); } }\n");
        for (int start = 0; start < 2; start++) {
            assertThatThrownBy(() -> load(source)).isInstanceOf(OperatorException.class)
                    .hasMessageStartingWith(source + ":1: error: cannot find symbol\n");
        }
        assertThat(entries()).isEmpty();
    }

    @Test
    void aCacheThatCannotBeWrittenStillLoadsTheClasses() throws IOException {
        Files.writeString(cacheRoot(), "a file where the cache's directory would be");
        Path source = Files.writeString(dir.resolve("Handlers.java"), FIRST);
        for (int start = 0; start < 2; start++) {
            assertThat(load(source)).singleElement().satisfies(handlers -> assertThat(handlers.getMethod("first")).isNotNull());
        }
    }

    private List<Path> entries() throws IOException {
        if (!Files.isDirectory(cacheRoot())) {
            return List.of();
        }
        try (Stream<Path> paths = Files.list(cacheRoot())) {
            return paths.toList();
        }
    }
}
