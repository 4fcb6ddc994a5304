package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The {@code ./kopf4j} launcher in a copy of the checkout's layout, with an {@code mvn} on the PATH
 * that only records that it was called: {@code --help} and {@code --version} answer without a build;
 * on this JDK (25+) a first {@code run} records the classes it loads and the next start makes and
 * uses the AOT cache of them ({@code scripts/aot-options.sh}) if its operator served, which JDKs
 * before 25 never see.
 */
@ExtendWith(LocalClusterExtension.class)
class LauncherTest {
    private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path root;
    private Path builds;
    private Path jar;

    @BeforeEach
    void layout() throws IOException {
        Files.createDirectories(root.resolve("scripts"));
        for (String file : List.of("kopf4j", "scripts/java-home.sh", "scripts/jvm-options.sh", "scripts/aot-options.sh",
                "scripts/envtest.sh", "scripts/usage.sh")) {
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
        return launch(Map.of("CLASSPATH", System.getProperty("java.class.path")), args);
    }

    /** Runs the launcher with these environment variables. */
    private Result launch(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        Process process = start(environment, args);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
        return new Result(process.exitValue(), Files.readString(root.resolve("out")), Files.readString(root.resolve("err")),
                Files.exists(builds));
    }

    /** Starts the launcher with these environment variables, its output to the files {@code out} and {@code err}. */
    private Process start(Map<String, String> environment, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("kopf4j").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("PATH", root.resolve("bin") + ":" + System.getenv("PATH"));
        builder.environment().remove("KOPF4J_JAVA_OPTS");
        builder.environment().remove("KOPF4J_AOT");
        builder.environment().put("XDG_CACHE_HOME", root.resolve("cache").toString());
        builder.environment().putAll(environment);
        builder.redirectOutput(root.resolve("out").toFile()).redirectError(root.resolve("err").toFile());
        return builder.start();
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

    /** A jar newer than the sources: the launcher runs it without a build. */
    private void freshJar() throws IOException {
        Files.writeString(root.resolve("kopf4j-cli/pom.xml"), "<project/>\n");   // what the launcher compares the jar with
        staleJar();
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(3600)));
    }

    /**
     * This test's classpath with its directories packed as jars (the JVM makes no AOT cache for a
     * classpath with a non-empty directory), as CLASSPATH, and the AOT log of each JVM to one file.
     */
    private Map<String, String> jarredClasspath() throws IOException {
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                Path packed = root.resolve("classpath-" + entries.size() + ".jar");
                jar(path, packed);
                entries.add(packed.toString());
            } else {
                entries.add(entry);
            }
        }
        return Map.of("CLASSPATH", String.join(File.pathSeparator, entries),
                "KOPF4J_JAVA_OPTS", "-Xlog:aot=info:file=" + root.resolve("aot.log"));
    }

    private static void jar(Path directory, Path jar) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(directory.relativize(file).toString().replace(File.separatorChar, '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
        }
    }

    private List<String> cacheFiles() throws IOException {
        Path aot = root.resolve("cache/kopf4j/aot");
        if (!Files.isDirectory(aot)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(aot)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aRunThatServesFromCompiledHandlersRecordsTheClassesAndTheNextStartMakesAndUsesTheAotCache(LocalCluster cluster,
            TemporaryNamespace namespace) throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, "the launcher's JDK (this one) has the AOT cache from 25 on");
        freshJar();
        Map<String, String> environment = jarredClasspath();
        Path handlers = Files.writeString(root.resolve("Handlers.java"), """
                import io.kopf4j.On;

                public class Handlers {
                    @On.Create("configmaps")
                    public void create() {
                    }
                }
                """);
        List<String> run = List.of("run", "--kubeconfig", cluster.kubeconfig().toString(), "-n", namespace.name(),
                handlers.toString());
        serveAndStop(environment, run);
        assertThat(cacheFiles()).as("the first run compiled the handlers (it loaded javac): its recording is not marked")
                .singleElement().asString().endsWith(".aotconf");
        assertThat(launch(environment, "--version").out()).startsWith("kopf4j ");
        assertThat(cacheFiles()).as("the unmarked recording dropped, no cache made").isEmpty();

        serveAndStop(environment, run);   // the handlers' classes from the class cache, as every later start reads them
        assertThat(Files.readString(root.resolve("out"))).as("the JVM's line about its recording").doesNotContain("AOTConfiguration");
        assertThat(cacheFiles()).as("the recording, marked as an operator's that served").hasSize(2)
                .anySatisfy(file -> assertThat(file).endsWith(".aotconf")).anySatisfy(file -> assertThat(file).endsWith(".aotconf.served"));
        assertThat(Files.readString(root.resolve("aot.log"))).doesNotContain("Using AOT-linked classes: true");

        Result next = launch(environment, "--version");
        assertThat(next.code()).isZero();
        assertThat(next.out()).startsWith("kopf4j ");
        assertThat(next.err()).isEmpty();
        assertThat(cacheFiles()).as("the recording made into a cache").hasSize(2)
                .anySatisfy(file -> assertThat(file).endsWith(".aot")).anySatisfy(file -> assertThat(file).endsWith(".create.log"));
        assertThat(Files.readString(root.resolve("aot.log"))).as("the AOT log of the JVM of --version")
                .contains("Using AOT-linked classes: true");
    }

    /** Runs the operator until it serves, then stops it with SIGTERM: its JVM writes the recording as it exits. */
    private void serveAndStop(Map<String, String> environment, List<String> arguments) throws Exception {
        Process operator = start(environment, arguments.toArray(String[]::new));
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.readString(root.resolve("err")).contains("serves 1 handler(s)"));
        } finally {
            operator.destroy();
            assertThat(operator.waitFor(60, TimeUnit.SECONDS)).as("the operator stops").isTrue();
        }
        assertThat(operator.exitValue()).isZero();
    }

    /** A first run that fails records a fraction of an operator's classes: no cache of that, and the next run records again. */
    @Test
    void aFirstRunThatFailsMakesNoCache() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, "the launcher's JDK (this one) has the AOT cache from 25 on");
        freshJar();
        Map<String, String> environment = jarredClasspath();
        Result failed = launch(environment, "run", "--kubeconfig", root.resolve("missing").toString());
        assertThat(failed.err()).contains("no handlers given");
        assertThat(cacheFiles()).as("the recording, unmarked").singleElement().asString().endsWith(".aotconf");

        assertThat(launch(environment, "--version").out()).startsWith("kopf4j ");
        assertThat(cacheFiles()).as("the unmarked recording dropped, no cache made").isEmpty();
        assertThat(Files.readString(root.resolve("aot.log"))).doesNotContain("Using AOT-linked classes: true");
        launch(environment, "run", "--kubeconfig", root.resolve("missing").toString());
        assertThat(cacheFiles()).as("the next run records again").singleElement().asString().endsWith(".aotconf");
    }

    @Test
    void theAotCacheIsOffWithKopf4jAotOff() throws Exception {
        freshJar();
        Map<String, String> environment = new HashMap<>(jarredClasspath());
        environment.put("KOPF4J_AOT", "off");
        launch(environment, "run", "--kubeconfig", root.resolve("missing").toString());
        assertThat(launch(environment, "--version").out()).startsWith("kopf4j ");
        assertThat(cacheFiles()).isEmpty();
        assertThat(Files.readString(root.resolve("aot.log"))).doesNotContain("Using AOT-linked classes: true");
    }

    /** JDK 21 to 24: no AOT options at all, so nothing the JVM could fail on or warn about. */
    @Test
    void aJdkBefore25GetsNoAotOptions() throws Exception {
        Path jdk21 = Files.createDirectories(root.resolve("jdk-21"));
        Files.writeString(jdk21.resolve("release"), "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"21.0.5\"\n");
        ProcessBuilder script = new ProcessBuilder("bash", root.resolve("scripts/aot-options.sh").toString(), jdk21.toString(),
                "1", "run", jar.toString(), "-XX:TieredStopAtLevel=1").redirectErrorStream(true);
        script.environment().put("XDG_CACHE_HOME", root.resolve("cache").toString());
        script.environment().remove("KOPF4J_AOT");
        Process process = script.start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).isZero();
        assertThat(output).isEmpty();
        assertThat(cacheFiles()).isEmpty();
    }
}
