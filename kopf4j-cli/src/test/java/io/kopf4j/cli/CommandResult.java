package io.kopf4j.cli;

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
        Main.Captured captured = Main.capture(args);
        return new CommandResult(captured.code(), captured.out(), captured.err());
    }

    String lastErrorLine() {
        List<String> lines = err.lines().toList();
        return lines.isEmpty() ? "" : lines.getLast();
    }
}
