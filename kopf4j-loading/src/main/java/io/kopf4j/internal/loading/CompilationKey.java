package io.kopf4j.internal.loading;

import io.kopf4j.internal.structs.Sha256;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.List;

/**
 * The content key of one compilation of handler sources: SHA-256, in hex, over all that decides its
 * class files. Those are the sources (path and bytes), the compiler's options, the classpath they
 * compile against (its text, and the size and modification time of each of its files, the jars: a
 * rebuilt jar changes the key without reading it whole), and the running Java's version (its
 * compiler and class file format). Directories on the classpath count by their path only: walking
 * them at every start would cost what the cache saves.
 *
 * <pre>{@code
 * String key = CompilationKey.of(List.of(Path.of("Handlers.java")), options, Classpath.effective());
 * // "3f1c…", 64 hex digits; another key as soon as Handlers.java or a jar changes
 * }</pre>
 */
final class CompilationKey {
    /** Changes with the cache's layout, so that entries in an older layout are never read. */
    private static final String LAYOUT = "kopf4j compiled classes 1";

    private CompilationKey() {
    }

    /** {@code classpath}: the one among the options, whose jars count as well. */
    static String of(List<Path> sources, List<String> options, String classpath) throws IOException {
        MessageDigest digest = Sha256.digest();
        add(digest, LAYOUT);
        add(digest, Runtime.version().toString());
        for (String option : options) {
            add(digest, option);
        }
        add(digest, classpath);
        for (String entry : classpath.split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isRegularFile(path)) {
                BasicFileAttributes file = Files.readAttributes(path, BasicFileAttributes.class);
                add(digest, entry + " " + file.size() + " " + file.lastModifiedTime());
            }
        }
        for (Path source : sources) {
            add(digest, source.toAbsolutePath().normalize().toString());
            add(digest, Files.readAllBytes(source));
        }
        return Sha256.finish(digest);
    }

    private static void add(MessageDigest digest, String field) {
        add(digest, field.getBytes(StandardCharsets.UTF_8));
    }

    /** Each field after its length, so that no two lists of fields digest the same bytes. */
    private static void add(MessageDigest digest, byte[] field) {
        digest.update(ByteBuffer.allocate(Long.BYTES).putLong(field.length).array());
        digest.update(field);
    }
}
