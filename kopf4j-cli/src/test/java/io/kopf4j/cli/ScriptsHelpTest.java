package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every script of the project answers {@code --help} with what it does, and does nothing else: a
 * newcomer's {@code scripts/image-test.sh --help} once ran the whole image test. A script that
 * starts its work instead runs past the timeout and fails here.
 */
class ScriptsHelpTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void everyScriptPrintsItsHeaderForHelpAndExitsAtOnce() throws Exception {
        List<Path> scripts = scripts();
        assertThat(scripts).extracting(script -> ROOT.relativize(script).toString())
                .contains("scripts/test.sh", "scripts/envtest.sh", "scripts/image-test.sh", ".ci/run", "bench/run.sh",
                        "scripts/check-links.py");
        for (Path script : scripts) {
            for (String flag : List.of("--help", "-h")) {
                Process process = new ProcessBuilder(script.toString(), flag).directory(ROOT.toFile())
                        .redirectErrorStream(true).start();
                boolean exited = process.waitFor(30, TimeUnit.SECONDS);
                if (!exited) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                }
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                String name = ROOT.relativize(script) + " " + flag;
                assertThat(exited).as("%s returned within 30 s", name).isTrue();
                assertThat(process.exitValue()).as("%s's exit code; it printed:%n%s", name, output).isZero();
                assertThat(output).as("%s printed its header", name).contains(headline(script));
            }
        }
    }

    /** The first line of a script's header: its first comment line, or its docstring's. */
    private static String headline(Path script) throws IOException {
        String line = Files.readAllLines(script).get(1);
        return line.replaceFirst("^(# ?|\"\"\")", "").strip();
    }

    /** The executable scripts: scripts/, bench/ and .ci/. */
    private static List<Path> scripts() throws IOException {
        try (Stream<Path> files = Stream.of("scripts", "bench", ".ci").flatMap(ScriptsHelpTest::list)) {
            return files.filter(Files::isRegularFile).filter(Files::isExecutable)
                    .filter(file -> file.toString().endsWith(".sh") || file.toString().endsWith(".py")
                            || file.getFileName().toString().equals("run"))
                    .sorted().toList();
        }
    }

    private static Stream<Path> list(String dir) {
        try {
            return Files.list(ROOT.resolve(dir)).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
