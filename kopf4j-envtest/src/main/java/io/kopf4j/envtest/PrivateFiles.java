package io.kopf4j.envtest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The files of a local cluster that hold its secrets (the CA's and the admin's keys, the kubeconfigs
 * with client keys and tokens), and the directories that hold them: readable by their owner alone,
 * as kubeadm keeps {@code /etc/kubernetes/pki} and kubectl its {@code ~/.kube/config}. A file is
 * created private rather than made so after its content is written, so that no other user can open
 * it in between. Where the file system has no POSIX permissions, files are written as they are.
 *
 * <pre>{@code
 * PrivateFiles.directory(dir);                                   // 0700
 * PrivateFiles.write(dir.resolve("admin.key"), Pem.encode(key)); // 0600
 * }</pre>
 */
final class PrivateFiles {
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private PrivateFiles() {
    }

    /** Creates the directory (and its parents, with the defaults) if missing; makes it its owner's alone. */
    static Path directory(Path dir) throws IOException {
        Files.createDirectories(dir);
        if (POSIX) {
            Files.setPosixFilePermissions(dir, DIRECTORY);
        }
        return dir;
    }

    /** Writes the text into a file that only its owner can read, created so or made so if it existed. */
    static Path write(Path file, String text) throws IOException {
        if (POSIX) {
            FileAttribute<?>[] attributes = Files.exists(file) ? new FileAttribute<?>[0]
                    : new FileAttribute<?>[]{PosixFilePermissions.asFileAttribute(FILE)};
            Files.newByteChannel(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), attributes).close();
            Files.setPosixFilePermissions(file, FILE);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }
}
