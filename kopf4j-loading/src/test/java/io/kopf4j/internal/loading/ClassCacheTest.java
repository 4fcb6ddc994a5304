package io.kopf4j.internal.loading;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kopf4j.internal.structs.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

class ClassCacheTest {
    private static final String KEY = "0".repeat(64);
    private static final Map<String, byte[]> CLASSES = Map.of(
            "Handlers", "handlers' bytes".getBytes(UTF_8),
            "com.example.Handlers$Helper", "helper's bytes".getBytes(UTF_8));

    @TempDir
    Path dir;
    private final Logger logger = (Logger) LoggerFactory.getLogger(ClassCache.class);
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    @BeforeEach
    void capture() {
        lines.start();
        logger.addAppender(lines);
        logger.setLevel(Level.DEBUG);
    }

    @AfterEach
    void release() {
        logger.detachAppender(lines);
        logger.setLevel(null);
    }

    @Test
    void theRootIsKopf4jsCacheDirThenXdgsThenTheHomes() {
        Path home = Path.of("/home/user");
        assertThat(ClassCache.root(Map.of("KOPF4J_CACHE_DIR", "/var/cache/op", "XDG_CACHE_HOME", "/xdg"), home))
                .isEqualTo(Path.of("/var/cache/op/classes"));
        assertThat(ClassCache.root(Map.of("XDG_CACHE_HOME", "/xdg"), home)).isEqualTo(Path.of("/xdg/kopf4j/classes"));
        assertThat(ClassCache.root(Map.of("XDG_CACHE_HOME", "relative"), home))
                .as("XDG ignores a relative path").isEqualTo(Path.of("/home/user/.cache/kopf4j/classes"));
        assertThat(ClassCache.root(Map.of("KOPF4J_CACHE_DIR", "", "XDG_CACHE_HOME", ""), home))
                .isEqualTo(Path.of("/home/user/.cache/kopf4j/classes"));
    }

    @Test
    void readsBackWhatItWroteLaidOutAsJavacAndSha256sumDo() throws IOException {
        ClassCache cache = new ClassCache(dir.resolve("classes"));
        assertThat(cache.read(KEY)).isEmpty();
        cache.write(KEY, CLASSES);
        assertThat(cache.read(KEY)).hasValueSatisfying(read -> {
            assertThat(read).containsOnlyKeys(CLASSES.keySet());
            CLASSES.forEach((name, code) -> assertThat(read.get(name)).as(name).isEqualTo(code));
        });
        Path entry = dir.resolve("classes").resolve(KEY);
        assertThat(Files.readString(entry.resolve("com/example/Handlers$Helper.class"))).isEqualTo("helper's bytes");
        assertThat(Files.readString(entry.resolve("SHA256SUMS"))).isEqualTo(
                Sha256.of("handlers' bytes".getBytes(UTF_8)) + "  Handlers.class\n"
                        + Sha256.of("helper's bytes".getBytes(UTF_8)) + "  com/example/Handlers$Helper.class\n");
        assertThat(entriesIn(dir.resolve("classes"))).as("nothing left beside the entry").containsExactly(KEY);
    }

    @Test
    void anotherKeyIsAMiss() {
        ClassCache cache = new ClassCache(dir);
        cache.write(KEY, CLASSES);
        assertThat(cache.read("1".repeat(64))).isEmpty();
    }

    /** Ways an entry can be found damaged: by hand, by a disk that lost writes, by another tool. */
    enum Damage {
        CLASS_FILE_ALTERED(entry -> Files.writeString(entry.resolve("Handlers.class"), "handlers' bytez")),
        CLASS_FILE_EMPTIED(entry -> Files.write(entry.resolve("Handlers.class"), new byte[0])),
        CLASS_FILE_MISSING(entry -> Files.delete(entry.resolve("Handlers.class"))),
        SUMS_MISSING(entry -> Files.delete(entry.resolve("SHA256SUMS"))),
        SUMS_TRUNCATED(entry -> Files.writeString(entry.resolve("SHA256SUMS"),
                Files.readString(entry.resolve("SHA256SUMS")).substring(0, 40))),
        SUMS_NAMING_A_FILE_OUTSIDE(entry -> Files.writeString(entry.resolve("SHA256SUMS"),
                Sha256.of(new byte[0]) + "  ../outside.class\n"));

        private final Action action;

        Damage(Action action) {
            this.action = action;
        }

        interface Action {
            void apply(Path entry) throws IOException;
        }
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void aDamagedEntryIsAMissThenReplacedWhole(Damage damage) throws IOException {
        Files.write(dir.resolve("outside.class"), new byte[0]);
        ClassCache cache = new ClassCache(dir);
        cache.write(KEY, CLASSES);
        damage.action.apply(dir.resolve(KEY));

        assertThat(cache.read(KEY)).isEmpty();
        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage)
                .anyMatch(line -> line.startsWith("Compiled handler classes in " + dir.resolve(KEY) + " are unusable, compiling again: "));

        cache.write(KEY, CLASSES);
        assertThat(cache.read(KEY)).hasValueSatisfying(read -> assertThat(read.get("Handlers")).isEqualTo(CLASSES.get("Handlers")));
        assertThat(entriesIn(dir)).as("the damaged entry deleted").containsExactlyInAnyOrder(KEY, "outside.class");
    }

    @Test
    void aCacheThatCannotBeWrittenIsSkippedAndTheReasonLoggedAtDebug() throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("file"), "");
        ClassCache cache = new ClassCache(notADirectory.resolve("classes"));

        cache.write(KEY, CLASSES);

        assertThat(cache.read(KEY)).isEmpty();
        assertThat(lines.list).singleElement().satisfies(line -> {
            assertThat(line.getLevel()).isEqualTo(Level.DEBUG);
            assertThat(line.getFormattedMessage()).startsWith("Compiled handler classes not cached: cannot write "
                    + notADirectory.resolve("classes") + " (java.nio.file.FileSystemException: ");
        });
    }

    private static List<String> entriesIn(Path root) throws IOException {
        try (Stream<Path> paths = Files.list(root)) {
            return paths.map(path -> path.getFileName().toString()).toList();
        }
    }
}
