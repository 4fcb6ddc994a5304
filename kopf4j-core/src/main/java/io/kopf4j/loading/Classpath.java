package io.kopf4j.loading;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The classpath the running JVM really has, for compiling handler sources against it. With
 * {@code java -jar kopf4j.jar} (and under Maven Surefire) {@code java.class.path} names one jar
 * whose manifest lists the rest; those entries are followed.
 */
final class Classpath {
    private Classpath() {
    }

    static String effective() {
        Set<String> entries = new LinkedHashSet<>();
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                add(Path.of(entry).toAbsolutePath(), entries);
            }
        }
        return String.join(File.pathSeparator, entries);
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
