package io.kopf4j.internal.loading;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where the classes of handler sources find their resources ({@code getResourceAsStream}), as Kopf's
 * handlers open files relative to {@code __file__}: the directory of each source, and, for a source
 * in a Maven layout ({@code .../src/main/java/...}), that project's {@code src/main/resources}, so
 * that {@code kopf4j run} finds what the jar and {@code mvn test} find.
 *
 * <pre>{@code
 * ResourceDirectories.of(List.of(Path.of("app/src/main/java/Handlers.java")))
 *     // [/abs/app/src/main/java, /abs/app/src/main/resources]
 * }</pre>
 */
final class ResourceDirectories {
    private ResourceDirectories() {
    }

    /** The directories of these sources, then their Maven resource directories that exist; absolute, without repeats. */
    static List<Path> of(List<Path> sources) {
        Set<Path> directories = new LinkedHashSet<>();
        for (Path source : sources) {
            directories.add(source.toAbsolutePath().normalize().getParent());
        }
        for (Path source : sources) {
            mavenResources(source.toAbsolutePath().normalize()).ifPresent(directories::add);
        }
        return List.copyOf(directories);
    }

    private static Optional<Path> mavenResources(Path source) {
        return mavenSources(source).map(sources -> sources.resolveSibling("resources")).filter(Files::isDirectory);
    }

    /** The {@code src/main/java} directory that this absolute source path lies in, if it is in a Maven layout. */
    static Optional<Path> mavenSources(Path source) {
        for (Path directory = source.getParent(); directory != null; directory = directory.getParent()) {
            if (directory.endsWith(Path.of("src", "main", "java"))) {
                return Optional.of(directory);
            }
        }
        return Optional.empty();
    }
}
