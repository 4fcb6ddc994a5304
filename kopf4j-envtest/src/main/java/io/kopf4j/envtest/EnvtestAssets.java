package io.kopf4j.envtest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the control-plane binaries (kube-apiserver, etcd, kubectl) for {@link LocalCluster}:
 * {@code KUBEBUILDER_ASSETS}, then the cache ({@code ~/.cache/kopf4j/envtest/<version>/}, or
 * {@code KOPF4J_ENVTEST_CACHE}), and otherwise runs the provisioning script shipped in this jar
 * ({@code scripts/envtest.sh} in the repository), which downloads the official envtest archive
 * or builds the binaries from Debian's sources.
 *
 * <pre>{@code
 * Path binaries = EnvtestAssets.locate();   // e.g. ~/.cache/kopf4j/envtest/1.34.1, with kube-apiserver, etcd, kubectl
 * }</pre>
 */
public final class EnvtestAssets {
    static final List<String> BINARIES = List.of("kube-apiserver", "etcd", "kubectl");
    private static final String SCRIPT = "envtest.sh";

    private EnvtestAssets() {
    }

    /**
     * The directory holding the binaries, provisioning them first if nothing is found.
     *
     * @return {@code $KUBEBUILDER_ASSETS} if set, else the newest complete version in the cache, else a new one
     * @throws IllegalStateException if {@code $KUBEBUILDER_ASSETS} lacks kube-apiserver, etcd or kubectl
     */
    public static Path locate() {
        String assets = System.getenv("KUBEBUILDER_ASSETS");
        if (assets != null && !assets.isBlank()) {
            Path dir = Path.of(assets);
            if (!complete(dir)) {
                throw new IllegalStateException("KUBEBUILDER_ASSETS=" + assets + " lacks one of " + BINARIES);
            }
            return dir;
        }
        return cached().orElseGet(EnvtestAssets::provision);
    }

    /**
     * The cache directory: {@code KOPF4J_ENVTEST_CACHE} or {@code ~/.cache/kopf4j/envtest}.
     *
     * @return the directory, whether it exists or not
     */
    public static Path cacheDirectory() {
        String configured = System.getenv("KOPF4J_ENVTEST_CACHE");
        return configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".cache", "kopf4j", "envtest");
    }

    static Optional<Path> cached() {
        Path cache = cacheDirectory();
        if (!Files.isDirectory(cache)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(cache)) {
            return versions.filter(EnvtestAssets::complete).max(Comparator.comparing(EnvtestAssets::versionKey));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Runs the bundled provisioning script; its progress goes to this JVM's stderr.
     *
     * @return the directory with the provisioned binaries, as the script names it (its last line)
     */
    public static Path provision() {
        try {
            Path script = Files.createTempFile("kopf4j-envtest-", ".sh");
            try (InputStream in = EnvtestAssets.class.getResourceAsStream(SCRIPT)) {
                if (in == null) {
                    throw new IllegalStateException("the provisioning script " + SCRIPT + " is missing from kopf4j-envtest");
                }
                Files.copy(in, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            try {
                Process process = new ProcessBuilder("bash", script.toString())
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
                String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                int code = process.waitFor();
                String last = out.lines().reduce((a, b) -> b).orElse("");
                if (code != 0 || last.isEmpty() || !complete(Path.of(last))) {
                    throw new IllegalStateException("provisioning the envtest binaries failed (exit code " + code
                            + "); see the lines above, or set KUBEBUILDER_ASSETS to a directory with " + BINARIES);
                }
                return Path.of(last);
            } finally {
                Files.deleteIfExists(script);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run the envtest provisioning script: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while provisioning the envtest binaries", e);
        }
    }

    static boolean complete(Path dir) {
        return BINARIES.stream().allMatch(b -> Files.isExecutable(dir.resolve(b)));
    }

    /** Orders {@code 1.9.0 < 1.20.2} (numerically, not as strings). */
    private static String versionKey(Path dir) {
        StringBuilder key = new StringBuilder();
        for (String part : dir.getFileName().toString().split("\\.")) {
            key.append(String.format("%08d", part.chars().allMatch(Character::isDigit) && !part.isEmpty()
                    ? Long.parseLong(part) : 0)).append('.');
        }
        return key.toString();
    }
}
