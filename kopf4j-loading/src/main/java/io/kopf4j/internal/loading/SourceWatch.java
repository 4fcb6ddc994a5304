package io.kopf4j.internal.loading;

import io.kopf4j.OperatorException;
import io.kopf4j.internal.structs.Sha256;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Watches handler sources for {@code kopf4j run --reload}: the source files, and for a source in a
 * Maven layout that project's {@code src/main/java} and {@code src/main/resources}, with their
 * subdirectories. It reports the files whose content changed once the directories have been quiet
 * for {@link #QUIET}: an editor saves through temporary files and renames, several events for one
 * save. A save that leaves the content as it was reports nothing, and editors' scratch files
 * ({@code .Handlers.java.swp}, {@code Handlers.java~}, {@code #Handlers.java#}) do not count.
 *
 * <pre>{@code
 * try (SourceWatch watch = SourceWatch.start(List.of(Path.of("Handlers.java")), changed -> reload(changed))) {
 *     ...   // reload(...) runs on the watch's thread; changes during it are reported after it
 * }
 * }</pre>
 */
public final class SourceWatch implements AutoCloseable {
    /** How long the directories stay quiet before a change is reported. */
    static final Duration QUIET = Duration.ofMillis(250);
    private static final String ABSENT = "absent";

    private final List<Path> sources;
    private final List<Path> trees;
    private final WatchService service;
    private final Consumer<List<Path>> onChange;
    private Map<Path, String> contents;

    private SourceWatch(List<Path> sources, List<Path> trees, WatchService service, Consumer<List<Path>> onChange) {
        this.sources = sources;
        this.trees = trees;
        this.service = service;
        this.onChange = onChange;
    }

    /**
     * Starts watching, on a daemon thread of its own.
     *
     * @param sources the handler source files
     * @param onChange called on the watch's thread with the changed files (absolute), in order of their paths
     * @return the running watch, which {@code close()} stops
     * @throws OperatorException if a directory cannot be watched
     */
    public static SourceWatch start(List<Path> sources, Consumer<List<Path>> onChange) {
        List<Path> files = sources.stream().map(source -> source.toAbsolutePath().normalize()).toList();
        Set<Path> trees = new LinkedHashSet<>();
        for (Path file : files) {
            ResourceDirectories.mavenSources(file).ifPresent(java -> {
                trees.add(java);
                Path resources = java.resolveSibling("resources");
                if (Files.isDirectory(resources)) {
                    trees.add(resources);
                }
            });
        }
        try {
            SourceWatch watch = new SourceWatch(files, List.copyOf(trees), files.getFirst().getFileSystem().newWatchService(),
                    onChange);
            for (Path file : files) {
                watch.register(file.getParent());
            }
            for (Path tree : trees) {
                watch.registerTree(tree);
            }
            watch.contents = watch.contents();
            Thread.ofPlatform().daemon().name("kopf4j-reload").start(watch::run);
            return watch;
        } catch (IOException | UncheckedIOException e) {
            throw new OperatorException("cannot watch the handler sources " + sources + " for --reload: " + e.getMessage(), e);
        }
    }

    /** Stops watching; a change being reported is reported to its end. */
    @Override
    public void close() {
        try {
            service.close();
        } catch (IOException e) {
            // Nothing more is reported either way.
        }
    }

    private void run() {
        try {
            while (true) {
                WatchKey key = service.take();
                do {
                    settle(key);
                    key = service.poll(QUIET.toMillis(), TimeUnit.MILLISECONDS);
                } while (key != null);
                Map<Path, String> now = contents();
                List<Path> changed = changed(contents, now);
                contents = now;
                if (!changed.isEmpty()) {
                    onChange.accept(changed);
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // Closed: the watch ends.
        }
    }

    /** Takes a directory's events: a new subdirectory of a watched tree is watched too. */
    private void settle(WatchKey key) {
        for (WatchEvent<?> event : key.pollEvents()) {
            if (event.context() instanceof Path name && key.watchable() instanceof Path directory
                    && trees.stream().anyMatch(directory::startsWith) && Files.isDirectory(directory.resolve(name))) {
                try {
                    registerTree(directory.resolve(name));
                } catch (IOException | UncheckedIOException e) {
                    // Gone again already: nothing in it to watch.
                }
            }
        }
        key.reset();
    }

    private void register(Path directory) throws IOException {
        directory.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                StandardWatchEventKinds.ENTRY_DELETE);
    }

    private void registerTree(Path root) throws IOException {
        try (Stream<Path> directories = Files.walk(root).filter(Files::isDirectory)) {
            for (Path directory : directories.toList()) {
                register(directory);
            }
        }
    }

    /** The watched files and a digest of each one's content: the sources (absent ones too) and the trees' files. */
    private Map<Path, String> contents() {
        Map<Path, String> digests = new HashMap<>();
        for (Path source : sources) {
            digests.put(source, digest(source));
        }
        for (Path tree : trees) {
            try (Stream<Path> files = Files.walk(tree)) {
                files.filter(file -> Files.isRegularFile(file) && !scratch(file)).forEach(file -> digests.put(file, digest(file)));
            } catch (IOException | UncheckedIOException e) {
                digests.put(tree, ABSENT);   // a tree being replaced: read again at its next event
            }
        }
        return digests;
    }

    private static String digest(Path file) {
        try {
            return Sha256.of(Files.readAllBytes(file));
        } catch (IOException e) {
            return ABSENT;   // deleted, or renamed away for a moment by an editor saving it
        }
    }

    /** An editor's backup, swap or lock file. */
    private static boolean scratch(Path file) {
        String name = file.getFileName().toString();
        return name.startsWith(".") || name.startsWith("#") || name.endsWith("~");
    }

    private static List<Path> changed(Map<Path, String> before, Map<Path, String> after) {
        Set<Path> files = new TreeSet<>(before.keySet());
        files.addAll(after.keySet());
        return files.stream().filter(file -> !Objects.equals(before.get(file), after.get(file))).toList();
    }
}
