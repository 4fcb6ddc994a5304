package io.kopf4j.cli;

import io.kopf4j.OperatorException;
import io.kopf4j.internal.runtime.OutOfMemory;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code kopf4j} command. Bad input ends with one line {@code kopf4j: error: ...} on stderr
 * (followed by javac's diagnostic lines when a handler source does not compile) and a non-zero exit code: 1 when the operator cannot start or fails, 2 for invalid arguments.
 * Options default to environment variables {@code KOPF4J_<COMMAND>_<OPTION>}, e.g.
 * {@code KOPF4J_RUN_NAMESPACE}.
 *
 * <pre>{@code
 * java -cp "kopf4j.jar:handlers.jar" io.kopf4j.cli.Main run --namespace default com.example.Handlers
 *
 * Main.Captured result = Main.capture("run", "--help");   // in tests: the exit code and both outputs
 * }</pre>
 */
@Command(name = "kopf4j", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Kubernetes operators as a few annotated Java methods: Kopf for Java.",
        subcommands = {InitCommand.class, RunCommand.class, FreezeCommand.class, ResumeCommand.class,
                WebhookConfigurationCommand.class, CrdCommand.class, ManifestsCommand.class, CheckRbacCommand.class,
                EnvtestCommand.class, ClusterCommand.class, SetStatusCommand.class, MigrateStorageCommand.class, KubeconfigCommand.class})
public final class Main {
    /** The top command, as picocli runs it; its subcommands do the work. */
    public Main() {
    }

    /**
     * Runs the command line and exits the JVM with its exit code; an out-of-memory error exits too.
     *
     * @param args the command line, e.g. {@code run --namespace default Handlers.java}
     */
    public static void main(String[] args) {
        OutOfMemory.exitOnOutOfMemory();   // this process is the operator's: one line and exit code 3
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs the command line and returns the exit code, printing to the given writers.
     *
     * @param args the command line, e.g. {@code "run", "--namespace", "default", "Handlers.java"}
     * @param out where the command's output and help go
     * @param err where the errors go, {@code kopf4j: error: ...}
     * @return 0 on success, 1 when the operator cannot start or fails, 2 for invalid arguments
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return execute(args, out, err, System.getenv());
    }

    /**
     * What a command printed and its exit code, for tests and tools that run commands in this JVM.
     *
     * <pre>{@code
     * Main.Captured result = Main.capture("check-rbac", "-n", "default", "Handlers.java");
     * if (result.code() == 1) { System.out.print(result.out()); }
     * }</pre>
     *
     * @param code the exit code
     * @param out what it printed to stdout
     * @param err what it printed to stderr
     */
    public record Captured(int code, String out, String err) {
    }

    /**
     * Runs the command line in this JVM and captures its output.
     *
     * @param args the command line, e.g. {@code "check-rbac", "-n", "default", "Handlers.java"}
     * @return the exit code and both outputs
     */
    public static Captured capture(String... args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Captured(code, out.toString(), err.toString());
    }

    /** As {@link #execute(String[], PrintWriter, PrintWriter)}, with option defaults from this environment. */
    static int execute(String[] args, PrintWriter out, PrintWriter err, java.util.Map<String, String> environment) {
        CommandLine commandLine = new CommandLine(new Main())
                .setDefaultValueProvider(new EnvironmentDefaults(environment))
                .setOut(out)
                .setErr(err)
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    if (!(e instanceof OperatorException) && !(e instanceof IllegalStateException)) {
                        e.printStackTrace(cmd.getErr());
                    }
                    cmd.getErr().println("kopf4j: error: " + e.getMessage());
                    return 1;
                });
        return commandLine.execute(args);
    }
}
