package io.kopf4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The command lines of the operators a benchmark runs. The floor and kopf4j come with the checkout
 * ({@link OperatorKind#process}); the other frameworks are prepared once, and left out with one line
 * saying why where they cannot run:
 *
 * <ul>
 *   <li>{@code kopf}: Kopf from a checkout of its source ({@code $KOPF4J_BENCH_KOPF_SOURCE}) on Debian's
 *       {@code /usr/bin/python3}, its dependencies Debian's packages that {@code bench/peers/kopf-deps.sh}
 *       downloads and unpacks into a directory of their own (on {@code PYTHONPATH} after the checkout),
 *       running {@code bench/peers/kopf_handlers.py} through {@code bench/peers/kopf_run.py} (Kopf's
 *       {@code kopf run}, for a checkout); prepared by {@code kopf-deps.sh}, which fails where Debian's
 *       archive is out of reach (the first time), and {@code kopf_run.py --version}, which fails where
 *       Kopf's packages are missing or older than it asks for, and otherwise imports Kopf and so compiles
 *       its modules' bytecode, as a user's first start would.</li>
 *   <li>{@code josdk}: the Java Operator SDK from Maven Central, {@code bench/peers/josdk} (a project of
 *       its own, with JOSDK's dependencies as it was released), built with {@code mvn} and
 *       {@code $MAVEN_OPTS_BENCH}, run with the floor's JVM options.</li>
 * </ul>
 *
 * <pre>{@code
 * OperatorCommands commands = OperatorCommands.prepare(root, OperatorKind.parse("floor,kopf4j,kopf,josdk"));
 * List<OperatorKind> runnable = commands.operators();          // kopf left out: no KOPF4J_BENCH_KOPF_SOURCE
 * Process operator = commands.process(OperatorKind.JOSDK, kubeconfig, "bench").start();
 * }</pre>
 */
final class OperatorCommands {
    static final String KOPF_SOURCE = "KOPF4J_BENCH_KOPF_SOURCE";
    private static final String PYTHON = "/usr/bin/python3";
    private static final long PREPARE_MINUTES = 10;

    private final Path root;
    private final List<OperatorKind> operators = new ArrayList<>();
    private final List<String> versions = new ArrayList<>();
    private String kopfPythonPath;
    private String josdkClasspath;

    private OperatorCommands(Path root) {
        this.root = root;
    }

    /** Prepares the peers among the operators; prints what each is, or why it is skipped. */
    static OperatorCommands prepare(Path root, List<OperatorKind> chosen) throws IOException, InterruptedException {
        OperatorCommands commands = new OperatorCommands(root);
        for (OperatorKind kind : chosen) {
            Optional<String> skipped = switch (kind) {
                case KOPF -> commands.prepareKopf();
                case JOSDK -> commands.prepareJosdk();
                default -> Optional.empty();
            };
            if (skipped.isPresent()) {
                System.out.println("[" + kind.label() + "] skipped: " + skipped.get());
            } else {
                commands.operators.add(kind);
            }
        }
        return commands;
    }

    /** The operators that can run, in the order chosen. */
    List<OperatorKind> operators() {
        return operators;
    }

    /**
     * The peers' versions, e.g. {@code Kopf 1.44.6 (Python 3.11.2, aiohttp 3.11.16, click 8.3.3; without their C
     * extensions: aiohttp, …) from /opt/kopf; JOSDK 5.2.3}; empty without peers.
     */
    String versions() {
        return String.join("; ", versions);
    }

    ProcessBuilder process(OperatorKind kind, Path kubeconfig, String namespace) throws IOException, InterruptedException {
        ProcessBuilder process = switch (kind) {
            case KOPF -> kopf(namespace);
            case JOSDK -> OperatorKind.java(root, josdkClasspath, "io.kopf4j.bench.josdk.JosdkOperator", namespace);
            default -> kind.process(root, kubeconfig, namespace);
        };
        if (kind.isPeer()) {
            process.environment().put("KUBECONFIG", kubeconfig.toString());   // where both find their cluster by default
        }
        return process;
    }

    private ProcessBuilder kopf(String namespace) {
        ProcessBuilder process = new ProcessBuilder(PYTHON, root.resolve("bench/peers/kopf_run.py").toString(), "run",
                "--namespace=" + namespace, "--standalone", root.resolve("bench/peers/kopf_handlers.py").toString());
        process.environment().put("PYTHONPATH", kopfPythonPath);
        return process;
    }

    /**
     * Kopf (once prepared: {@link #operators()} holds it) with another benchmark's handlers file,
     * e.g. {@code bench/peers/kopf_bigcluster.py}, relative to the checkout.
     */
    ProcessBuilder kopf(String handlers, Path kubeconfig, String namespace) {
        ProcessBuilder process = kopf(namespace);
        process.command().set(process.command().size() - 1, root.resolve(handlers).toString());
        process.environment().put("KUBECONFIG", kubeconfig.toString());
        return process;
    }

    private Optional<String> prepareKopf() throws IOException, InterruptedException {
        String source = System.getenv().getOrDefault(KOPF_SOURCE, "");
        if (source.isEmpty()) {
            return Optional.of(KOPF_SOURCE + " is not set: the path of a checkout of Kopf's source (bench/README.md)");
        }
        Path kopfSource = Path.of(source).toAbsolutePath();
        if (!Files.isDirectory(kopfSource.resolve("kopf"))) {
            return Optional.of(KOPF_SOURCE + "=" + source + " holds no kopf/ package: not a checkout of Kopf's source");
        }
        if (!Files.isExecutable(Path.of(PYTHON))) {
            return Optional.of("no " + PYTHON + " (Debian's python3: bench/README.md)");
        }
        Output dependencies = run(new ProcessBuilder(root.resolve("bench/peers/kopf-deps.sh").toString()));
        if (dependencies.exitCode() != 0) {
            String why = dependencies.lastLine().replaceFirst("^\\[kopf4j kopf-deps [^]]*] (ERROR: )?", "");
            return Optional.of("no Debian packages of Kopf's dependencies (bench/peers/kopf-deps.sh): " + why);
        }
        kopfPythonPath = kopfSource + ":" + dependencies.lastLine();
        ProcessBuilder version = new ProcessBuilder(PYTHON, root.resolve("bench/peers/kopf_run.py").toString(), "--version");
        version.environment().put("PYTHONPATH", kopfPythonPath);
        Output output = run(version);
        if (output.exitCode() != 0) {
            return Optional.of("Kopf of " + kopfSource + " cannot run on " + PYTHON + " here: " + output.lastLine());
        }
        versions.add(output.lastLine() + " from " + kopfSource);
        System.out.println("[kopf] " + output.lastLine() + " from " + kopfSource);
        return Optional.empty();
    }

    private Optional<String> prepareJosdk() throws IOException, InterruptedException {
        Path project = root.resolve("bench/peers/josdk/pom.xml");
        Path classpathFile = Files.createTempFile("kopf4j-bench-josdk-", ".classpath");
        try {
            List<String> command = new ArrayList<>(List.of("mvn", "-q", "-B"));
            String options = System.getenv().getOrDefault("MAVEN_OPTS_BENCH", "").strip();
            if (!options.isEmpty()) {
                command.addAll(List.of(options.split("\\s+")));
            }
            command.addAll(List.of("-f", project.toString(), "compile", "dependency:build-classpath",
                    "-Dmdep.outputFile=" + classpathFile));
            Output output = run(new ProcessBuilder(command));
            if (output.exitCode() != 0) {
                return Optional.of("its build failed (JOSDK not resolvable from Maven Central or the local repository?): " + output.firstError());
            }
            josdkClasspath = root.resolve("bench/peers/josdk/target/classes") + ":" + Files.readString(classpathFile).strip();
        } finally {
            Files.deleteIfExists(classpathFile);
        }
        String version = "JOSDK " + josdkVersion(josdkClasspath);
        versions.add(version);
        System.out.println("[josdk] " + version + " (bench/peers/josdk)");
        return Optional.empty();
    }

    /** The version in the name of the operator-framework jar on the classpath. */
    private static String josdkVersion(String classpath) {
        for (String entry : classpath.split(":")) {
            String name = Path.of(entry).getFileName().toString();
            if (name.startsWith("operator-framework-core-") && name.endsWith(".jar")) {
                return name.substring("operator-framework-core-".length(), name.length() - ".jar".length());
            }
        }
        return "(unknown version)";
    }

    private record Output(int exitCode, String text) {
        /** A Python traceback's last line is its error. */
        String lastLine() {
            List<String> lines = text.strip().lines().toList();
            return lines.isEmpty() ? "(no output)" : lines.getLast();
        }

        /** Maven's first {@code [ERROR]} line says what failed; the lines after it, where to read more. */
        String firstError() {
            return text.lines().filter(line -> line.startsWith("[ERROR]")).findFirst().orElse(lastLine());
        }
    }

    private static Output run(ProcessBuilder command) throws IOException, InterruptedException {
        Process process = command.redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(PREPARE_MINUTES, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return new Output(-1, text + "\ntimed out after " + PREPARE_MINUTES + " minutes");
        }
        return new Output(process.exitValue(), text);
    }
}
