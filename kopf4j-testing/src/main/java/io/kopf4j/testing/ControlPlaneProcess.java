package io.kopf4j.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One binary of the control plane (etcd or kube-apiserver) running as a child process, its output
 * in a log file. Stopping kills the whole process tree: SIGTERM, then SIGKILL after a grace period;
 * killing sends SIGKILL at once; freezing and thawing send SIGSTOP and SIGCONT.
 */
final class ControlPlaneProcess {
    private static final Duration GRACE = Duration.ofSeconds(5);

    private final String name;
    private final Path log;
    private final Process process;

    private ControlPlaneProcess(String name, Path log, Process process) {
        this.name = name;
        this.log = log;
        this.process = process;
    }

    static ControlPlaneProcess start(String name, List<String> command, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .start();
        return new ControlPlaneProcess(name, log, process);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The last lines of the process's output, for error messages. */
    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    String describe() {
        return name + " (pid " + process.pid() + ")";
    }

    /** Kills the process tree at once (SIGKILL), as a crash would: nothing is flushed, no connection closed. */
    void kill() {
        List<ProcessHandle> tree = process.descendants().toList();
        process.destroyForcibly();
        tree.forEach(ProcessHandle::destroyForcibly);
        try {
            process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Sends a signal by its name ({@code STOP}, {@code CONT}) with {@code kill(1)}: the JDK sends only
     * SIGTERM and SIGKILL.
     */
    void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes()).strip();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("cannot send SIG" + name + " to " + describe() + ": " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot send SIG" + name + " to " + describe() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + name + " to " + describe(), e);
        }
    }

    void stop() {
        List<ProcessHandle> tree = process.descendants().toList();
        process.destroy();
        tree.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }
}
