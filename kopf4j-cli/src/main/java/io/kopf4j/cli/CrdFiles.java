package io.kopf4j.cli;

import io.kopf4j.OperatorException;
import io.kopf4j.internal.structs.YamlFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code --crd} files of {@code kopf4j run} and {@code kopf4j manifests}, checked before anything
 * starts: a missing file, or one that is no YAML of Kubernetes objects, ends the command with one line
 * naming the file and the line at fault.
 *
 * <pre>{@code
 * CrdFiles.check(List.of(Path.of("examples/crd.yaml")));
 * // kopf4j: error: examples/crd.yaml:5:2: while parsing a block mapping: expected <block end>, but found ...
 * }</pre>
 */
final class CrdFiles {
    private CrdFiles() {
    }

    /** @throws OperatorException naming the first file at fault, and where */
    static void check(List<Path> files) {
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                throw new OperatorException("CRD file not found: " + file);
            }
            try {
                YamlFiles.objects(file);
            } catch (IllegalArgumentException e) {
                throw new OperatorException(e.getMessage(), e);
            }
        }
    }
}
