package io.kopf4j.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Kopf's command line for a benchmark: Kopf from a checkout of its source
 * ({@code $KOPF4J_BENCH_KOPF_SOURCE}) on Debian's {@code /usr/bin/python3} and Python packages,
 * through {@code bench/peers/kopf_run.py} (Kopf's {@code kopf run}, bridged to a checkout: the
 * load benchmark's), standalone in one namespace with a handlers file and a kubeconfig.
 * {@link #prepare} runs {@code kopf_run.py --version} once, which imports Kopf (and so compiles its
 * modules' bytecode, as a user's first start would), or prints one line why Kopf cannot run.
 *
 * <pre>{@code
 * KopfCommand kopf = KopfCommand.prepare(root);   // null: skipped, and said why
 * ProcessBuilder operator = kopf.process(root.resolve("bench/peers/kopf_bigcluster.py"), kubeconfig, "bench");
 * }</pre>
 */
final class KopfCommand {
    static final String SOURCE = "KOPF4J_BENCH_KOPF_SOURCE";
    private static final String PYTHON = "/usr/bin/python3";
    private static final long VERSION_TIMEOUT_MINUTES = 5;

    private final Path cli;
    private final Path source;
    private final String version;

    private KopfCommand(Path cli, Path source, String version) {
        this.cli = cli;
        this.source = source;
        this.version = version;
    }

    /** Kopf's command, or null after a line saying why it cannot run here. */
    static KopfCommand prepare(Path root) throws IOException, InterruptedException {
        String source = System.getenv().getOrDefault(SOURCE, "");
        Path cli = root.resolve("bench/peers/kopf_run.py");
        String skipped = null;
        if (source.isEmpty()) {
            skipped = SOURCE + " is not set: the path of a checkout of Kopf's source (bench/README.md)";
        } else if (!Files.isDirectory(Path.of(source, "kopf"))) {
            skipped = SOURCE + "=" + source + " holds no kopf/ package: not a checkout of Kopf's source";
        } else if (!Files.isExecutable(Path.of(PYTHON))) {
            skipped = "no " + PYTHON + " (Debian's python3: bench/README.md)";
        } else if (!Files.isRegularFile(cli)) {
            skipped = "no " + root.relativize(cli) + " in this checkout";
        }
        if (skipped == null) {
            KopfCommand kopf = new KopfCommand(cli, Path.of(source).toAbsolutePath(), null);
            ProcessBuilder versionCommand = kopf.command(List.of("--version")).redirectErrorStream(true);
            Process process = versionCommand.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            boolean exited = process.waitFor(VERSION_TIMEOUT_MINUTES, TimeUnit.MINUTES);
            String lastLine = output.isEmpty() ? "(no output)" : output.lines().reduce((first, second) -> second).orElseThrow();
            if (exited && process.exitValue() == 0) {
                System.out.println("[kopf] " + lastLine + " from " + kopf.source);
                return new KopfCommand(cli, kopf.source, lastLine);
            }
            process.destroyForcibly();
            skipped = "Kopf does not import with " + PYTHON + " (the Debian packages of bench/README.md?): " + lastLine;
        }
        System.out.println("[kopf] skipped: " + skipped);
        return null;
    }

    /** E.g. {@code Kopf 1.44.6 (Python 3.11.2, aiohttp 3.8.4, click 8.1.3)}. */
    String version() {
        return version;
    }

    /** {@code kopf run --namespace=NAMESPACE --standalone HANDLERS} against the cluster of the kubeconfig. */
    ProcessBuilder process(Path handlers, Path kubeconfig, String namespace) {
        ProcessBuilder process = command(List.of("--namespace=" + namespace, "--standalone", handlers.toString()));
        process.environment().put("KUBECONFIG", kubeconfig.toString());
        return process;
    }

    private ProcessBuilder command(List<String> arguments) {
        ProcessBuilder process = new ProcessBuilder(PYTHON, cli.toString());
        process.command().addAll(arguments);
        process.environment().put("PYTHONPATH", source.toString());
        return process;
    }
}
