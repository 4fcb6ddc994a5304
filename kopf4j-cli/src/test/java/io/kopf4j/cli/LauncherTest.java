package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The {@code ./kopf4j} launcher in a copy of the checkout's layout, with an {@code mvn} on the PATH
 * that only records that it was called: {@code --help} and {@code --version} answer without a build.
 */
class LauncherTest {
    private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path root;
    private Path builds;
    private Path jar;

    @BeforeEach
    void layout() throws IOException {
        Files.createDirectories(root.resolve("scripts"));
        for (String file : List.of("kopf4j", "scripts/java-home.sh", "scripts/jvm-options.sh", "scripts/envtest.sh")) {
            Files.copy(CHECKOUT.resolve(file), root.resolve(file));
        }
        Files.writeString(root.resolve("pom.xml"), "<project/>\n");
        Path source = Files.createDirectories(root.resolve("kopf4j-cli/src")).resolve("Main.java");
        Files.writeString(source, "changed after the last build\n");
        jar = root.resolve("kopf4j-cli/target/kopf4j.jar");
        builds = root.resolve("builds");
        Path bin = Files.createDirectories(root.resolve("bin"));
        Path mvn = Files.writeString(bin.resolve("mvn"), "#!/bin/sh\necho \"$@\" >> " + builds + "\nexit 1\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A jar older than the sources: the launcher would build before any other command. */
    private void staleJar() throws IOException {
        Files.createDirectories(jar.getParent());
        Files.write(jar, new byte[]{'P', 'K', 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});   // an empty zip
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(3600)));
    }

    /** Runs the launcher; the classes of this test's classpath stand for the last build's jar (CLASSPATH). */
    private Result launch(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("kopf4j").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("PATH", root.resolve("bin") + ":" + System.getenv("PATH"));
        builder.environment().put("CLASSPATH", System.getProperty("java.class.path"));
        builder.redirectOutput(root.resolve("out").toFile()).redirectError(root.resolve("err").toFile());
        Process process = builder.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
        return new Result(process.exitValue(), Files.readString(root.resolve("out")), Files.readString(root.resolve("err")),
                Files.exists(builds));
    }

    private record Result(int code, String out, String err, boolean built) {
    }

    @Test
    void helpWithAStaleJarIsTheLastBuildsWithoutBuilding() throws Exception {
        staleJar();
        for (String help : List.of("--help", "-h")) {
            Result result = launch(help);
            assertThat(result.built()).as("mvn was called").isFalse();
            assertThat(result.code()).isZero();
            assertThat(result.out()).startsWith("Usage: kopf4j [-hV] [COMMAND]").contains("check-rbac");
            assertThat(result.err()).contains("kopf4j's last build answers: the sources changed since");
        }
        assertThat(launch("--version").out()).startsWith("kopf4j ");
        assertThat(Files.exists(builds)).as("mvn was called").isFalse();
    }

    @Test
    void helpWithoutAJarNamesEveryCommandWithoutBuilding() throws Exception {
        Result result = launch("--help");
        assertThat(result.built()).as("mvn was called").isFalse();
        assertThat(result.code()).isZero();
        Set<String> commands = new CommandLine(new Main()).getSubcommands().keySet();
        assertThat(result.out()).contains("Commands: " + String.join(", ", commands) + "\n")
                .contains("kopf4j is not built yet");
        assertThat(launch("--version").out()).isEqualTo("kopf4j (not built yet)\n");
    }

    @Test
    void anyOtherCommandBuildsFirst() throws Exception {
        staleJar();
        Result result = launch("run", "--help");
        assertThat(result.built()).as("mvn was called").isTrue();
        assertThat(result.code()).isEqualTo(1);
        assertThat(result.err()).startsWith("Building kopf4j (mvn package, once) ...");
    }
}
