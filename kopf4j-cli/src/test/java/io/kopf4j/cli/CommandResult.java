package io.kopf4j.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/**
 * The kopf4j command run in this JVM: its exit code and what it printed.
 *
 * <pre>{@code
 * CommandResult result = CommandResult.kopf4j("crd", "Widget.java");
 * assertThat(result.code()).isZero();
 * }</pre>
 */
record CommandResult(int code, String out, String err) {
    static CommandResult kopf4j(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CommandResult(code, out.toString(), err.toString());
    }

    String lastErrorLine() {
        List<String> lines = err.lines().toList();
        return lines.isEmpty() ? "" : lines.getLast();
    }
}
