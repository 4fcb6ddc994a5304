package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/jvm-options.sh}: an option that a JDK does not know stops its JVM before anything
 * runs ("Unrecognized VM option"), so the options newer than Java 21 go only to the JDKs that have
 * them, by the version in the JDK's {@code release} file.
 */
class JvmOptionsTest {
    private static final Path SCRIPT = Path.of("..", "scripts", "jvm-options.sh");

    @TempDir
    Path dir;

    @Test
    void theNativeHeapIsTrimmedOnlyWhereTheOptionIsAProductOne() throws Exception {
        assertThat(optionsFor("21")).doesNotContain("-XX:TrimNativeHeapInterval=5000");
        assertThat(optionsFor("21.0.3")).doesNotContain("-XX:TrimNativeHeapInterval=5000");
        assertThat(optionsFor("21.0.4")).contains("-XX:TrimNativeHeapInterval=5000");
        assertThat(optionsFor("22")).contains("-XX:TrimNativeHeapInterval=5000");
        assertThat(optionsFor("25-ea")).contains("-XX:TrimNativeHeapInterval=5000", "-XX:+UseCompactObjectHeaders");
        assertThat(optionsFor("24.0.2")).doesNotContain("-XX:+UseCompactObjectHeaders");
    }

    /** The options for the JDK that runs this test start a JVM: none is misspelt or unknown to it. */
    @Test
    void thisJdkStartsWithTheOptions() throws Exception {
        Path javaHome = Path.of(System.getProperty("java.home"));
        List<String> command = new ArrayList<>(List.of(javaHome.resolve("bin/java").toString()));
        command.addAll(run(javaHome));
        command.add("-version");
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes());
        assertThat(java.waitFor()).as("java %s:%n%s", command, output).isZero();
    }

    private List<String> optionsFor(String version) throws Exception {
        Path jdk = Files.createDirectories(dir.resolve("jdk-" + version));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"" + version + "\"\n");
        return run(jdk);
    }

    private static List<String> run(Path javaHome) throws IOException, InterruptedException {
        ProcessBuilder script = new ProcessBuilder("bash", SCRIPT.toString(), javaHome.toString());
        script.environment().remove("KOPF4J_JAVA_OPTS");
        Process process = script.redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> options = new String(process.getInputStream().readAllBytes()).lines().toList();
        assertThat(process.waitFor()).as("scripts/jvm-options.sh for %s", javaHome).isZero();
        return options;
    }
}
