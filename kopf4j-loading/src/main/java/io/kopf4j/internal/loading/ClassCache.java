package io.kopf4j.internal.loading;

import io.kopf4j.internal.structs.Sha256;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compiled handler classes on disk, one directory per {@link CompilationKey}:
 * {@code <root>/<key>/} holds the class files as {@code javac -d} lays them out
 * ({@code com/example/Handlers.class}) and {@code SHA256SUMS}, their hashes as {@code sha256sum}
 * prints them. The root is {@code $KOPF4J_CACHE_DIR/classes}, else
 * {@code $XDG_CACHE_HOME/kopf4j/classes}, else {@code ~/.cache/kopf4j/classes}.
 *
 * <p>The cache never fails a start: an entry that does not read back whole, or does not match its
 * hashes (a disk that lost the last writes before a crash), is a miss, and a cache that cannot be
 * written is skipped, both logged at DEBUG. An entry is written into a directory beside it and then
 * renamed into place at once, so that a concurrent start or a crash mid-write never leaves half an
 * entry under a key. The JDK's files API does all of this; no library is needed.
 *
 * <pre>{@code
 * ClassCache cache = ClassCache.configured();
 * Map<String, byte[]> classes = cache.read(key).orElseGet(() -> compileAndWrite(key));
 * }</pre>
 */
final class ClassCache {
    private static final Logger LOG = LoggerFactory.getLogger(ClassCache.class);
    /** Where kopf4j keeps its caches, when not in the XDG cache directory. */
    static final String DIRECTORY_VARIABLE = "KOPF4J_CACHE_DIR";
    private static final String SUMS = "SHA256SUMS";
    /** A line of {@code SHA256SUMS}: the hash, two spaces, a class file's path in the entry. */
    private static final Pattern SUM = Pattern.compile("([0-9a-f]{64})  (\\S+)\\.class");

    private final Path root;

    ClassCache(Path root) {
        this.root = root;
    }

    /** The cache of this process's environment and user. */
    static ClassCache configured() {
        return new ClassCache(root(System.getenv(), Path.of(System.getProperty("user.home"))));
    }

    /** The root directory for this environment: XDG's rules, a relative {@code XDG_CACHE_HOME} ignored. */
    static Path root(Map<String, String> environment, Path home) {
        String configured = environment.getOrDefault(DIRECTORY_VARIABLE, "");
        if (!configured.isEmpty()) {
            return Path.of(configured, "classes");
        }
        String xdg = environment.getOrDefault("XDG_CACHE_HOME", "");
        Path caches = !xdg.isEmpty() && Path.of(xdg).isAbsolute() ? Path.of(xdg) : home.resolve(".cache");
        return caches.resolve("kopf4j").resolve("classes");
    }

    /** The class files under this key, by binary class name; empty when absent or damaged. */
    Optional<Map<String, byte[]>> read(String key) {
        Path entry = root.resolve(key);
        if (!Files.isDirectory(entry)) {
            return Optional.empty();
        }
        try {
            Map<String, byte[]> classes = new HashMap<>();
            for (String line : Files.readAllLines(entry.resolve(SUMS))) {
                Matcher sum = SUM.matcher(line);
                if (!sum.matches()) {
                    throw new IOException("not a line of " + SUMS + ": " + line);
                }
                Path file = entry.resolve(sum.group(2) + ".class").normalize();
                if (!file.startsWith(entry)) {
                    throw new IOException(SUMS + " names a file outside the entry: " + line);
                }
                byte[] code = Files.readAllBytes(file);
                if (!Sha256.of(code).equals(sum.group(1))) {
                    throw new IOException(file + " does not match its SHA-256");
                }
                classes.put(sum.group(2).replace('/', '.'), code);
            }
            LOG.debug("Compiled handler classes read from {}", entry);
            return Optional.of(classes);
        } catch (IOException e) {
            LOG.debug("Compiled handler classes in {} are unusable, compiling again: {}", entry, e.toString());
            return Optional.empty();
        }
    }

    /**
     * Keeps these class files under this key, replacing an entry there (which {@link #read} found
     * damaged); when the cache cannot be written, only logs why.
     */
    void write(String key, Map<String, byte[]> classes) {
        Path partial = null;
        try {
            Files.createDirectories(root);
            partial = Files.createTempDirectory(root, key + ".partial-");
            StringBuilder sums = new StringBuilder();
            for (Map.Entry<String, byte[]> compiled : new TreeMap<>(classes).entrySet()) {
                String file = compiled.getKey().replace('.', '/');
                Path path = partial.resolve(file + ".class");
                Files.createDirectories(path.getParent());
                Files.write(path, compiled.getValue());
                sums.append(Sha256.of(compiled.getValue())).append("  ").append(file).append(".class\n");
            }
            Files.writeString(partial.resolve(SUMS), sums);
            Path entry = root.resolve(key);
            if (Files.exists(entry)) {
                // No rename replaces a directory that has files: the damaged entry goes aside first.
                Path damaged = root.resolve(key + ".damaged-" + UUID.randomUUID());
                Files.move(entry, damaged, StandardCopyOption.ATOMIC_MOVE);
                delete(damaged);
            }
            Files.move(partial, entry, StandardCopyOption.ATOMIC_MOVE);
            partial = null;
            LOG.debug("Compiled handler classes cached in {}", entry);
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("Compiled handler classes not cached: cannot write {} ({})", root, e.toString());
        } finally {
            if (partial != null) {
                delete(partial);
            }
        }
    }

    /** Deletes a directory and what it holds, as far as it can: what remains is never read. */
    private static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("Cannot delete {}: {}", directory, e.toString());
        }
    }
}
