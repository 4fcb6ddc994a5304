package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.internal.runtime.OutOfMemory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The command's main() makes out-of-memory errors exit with one line ({@link OutOfMemory}); any
 * other error that no one catches must still end as the JVM ends it: its stack trace, exit code 1.
 */
class UncaughtErrorTest {
    /** A main() as the command's: out-of-memory errors exit, then an error that no one catches. */
    public static final class Failing {
        public static void main(String[] args) {
            OutOfMemory.exitOnOutOfMemory();
            throw new IllegalStateException("nobody catches this");
        }
    }

    @Test
    void anErrorThatNoOneCatchesIsPrintedAsTheJvmPrintsIt() throws Exception {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Failing.class.getName()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isEqualTo(1);
        assertThat(output).startsWith("Exception in thread \"main\" java.lang.IllegalStateException: nobody catches this\n")
                .contains("\tat " + Failing.class.getName() + ".main(").doesNotContain("StackOverflowError");
    }
}
