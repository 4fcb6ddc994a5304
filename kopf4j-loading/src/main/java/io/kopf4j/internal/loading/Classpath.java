package io.kopf4j.internal.loading;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The classpath the running JVM really has (module path included), for compiling handler sources
 * against it and for finding the classes of a package ({@code -m}). With
 * {@code java -jar kopf4j.jar} (and under Maven Surefire) {@code java.class.path} names one jar
 * whose manifest lists the rest; those entries are followed.
 */
final class Classpath {
    /**
     * Where the JVM finds classes: the classpath, and the module path when kopf4j itself runs as
     * the named module {@code io.kopf4j}; a handler source compiles against both (as unnamed code,
     * it sees the exported packages).
     */
    private static final List<String> PATH_PROPERTIES = List.of("java.class.path", "jdk.module.path");

    private Classpath() {
    }

    static String effective() {
        Set<String> entries = new LinkedHashSet<>();
        for (String property : PATH_PROPERTIES) {
            for (String entry : System.getProperty(property, "").split(File.pathSeparator)) {
                if (!entry.isEmpty()) {
                    add(Path.of(entry).toAbsolutePath(), entries);
                }
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /**
     * The names of the classes directly in this package (not its subpackages), in every directory
     * and jar of the classpath; the JDK has no API to list a package.
     */
    static List<String> classesIn(String packageName) {
        String folder = packageName.replace('.', '/');
        Set<String> names = new LinkedHashSet<>();
        for (String entry : effective().split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                names.addAll(fromDirectory(path.resolve(folder), packageName));
            } else if (entry.endsWith(".jar") && Files.isRegularFile(path)) {
                names.addAll(fromJar(path, folder));
            }
        }
        return new ArrayList<>(names);
    }

    private static List<String> fromDirectory(Path directory, String packageName) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (var files = Files.list(directory)) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".class") && !name.equals("package-info.class"))
                    .map(name -> packageName + "." + name.substring(0, name.length() - ".class".length()))
                    .sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static List<String> fromJar(Path jar, String folder) {
        List<String> names = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry entry : Collections.list(file.entries())) {
                String name = entry.getName();
                if (name.startsWith(folder + "/") && name.endsWith(".class") && name.indexOf('/', folder.length() + 1) < 0
                        && !name.endsWith("package-info.class")) {
                    names.add(name.substring(0, name.length() - ".class".length()).replace('/', '.'));
                }
            }
        } catch (IOException e) {
            // An unreadable jar holds nothing we could load.
        }
        return names;
    }

    private static void add(Path entry, Set<String> entries) {
        if (!entries.add(entry.toString()) || !entry.toString().endsWith(".jar") || !Files.isRegularFile(entry)) {
            return;
        }
        try (JarFile jar = new JarFile(entry.toFile())) {
            Manifest manifest = jar.getManifest();
            String classPath = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
            if (classPath == null) {
                return;
            }
            URI base = entry.getParent().toUri();
            for (String item : classPath.trim().split("\\s+")) {
                URI uri = base.resolve(item);
                if ("file".equals(uri.getScheme())) {
                    add(Path.of(uri), entries);
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // An unreadable jar contributes only itself; javac reports what is then missing.
        }
    }
}
