package io.kopf4j.envtest;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One binary of the control plane (etcd or kube-apiserver) running as a child process, its output
 * in a log file. Stopping kills the whole process tree: SIGTERM, then SIGKILL after a grace period;
 * killing sends SIGKILL at once; freezing and thawing send SIGSTOP and SIGCONT.
 *
 * <p>It runs in a session of its own ({@code setsid}), so that a terminal's Ctrl-C, which goes to
 * the whole foreground process group, reaches only the JVM: the operator stops first, while its
 * API server still answers, and the cluster is stopped after it. Outside the terminal's process
 * group it no longer dies with the terminal's signals, so a watchdog guards against orphans: the
 * process's stdin is a pipe from this JVM (its {@link Process} holds the other end), and when the
 * JVM is gone by any path (SIGKILL included), the kernel closes that end and the watchdog, reading
 * the pipe, sends the binary SIGTERM (then SIGKILL). A
 * parent-death signal ({@code setpriv --pdeathsig}) would not do: Linux sends it when the thread
 * that started the child ends, not the JVM, and any thread may start a cluster.
 *
 * <p>A kept cluster's process ({@link #startDetached}) has no watchdog: it outlives the JVM that
 * started it, its output appended to its log, and a later JVM stops it by its pid
 * ({@link #terminate}).
 */
final class ControlPlaneProcess {
    private static final Logger LOG = LoggerFactory.getLogger(ControlPlaneProcess.class);
    private static final Duration GRACE = Duration.ofSeconds(5);
    /**
     * Runs the binary ({@code "$@"}) in place of the shell, so that its pid is this process's, with
     * a watchdog beside it that waits for the end of the JVM's pipe on fd 3. (An asynchronous
     * command's stdin is /dev/null in a shell without job control, hence the pipe's copy on fd 3.)
     */
    private static final String WATCHDOG = """
            exec 3<&0
            (cat <&3 >/dev/null; kill -TERM $$ 2>/dev/null; sleep %d; kill -KILL $$ 2>/dev/null) &
            exec "$@" 3<&- </dev/null
            """.formatted(GRACE.toSeconds());
    /** util-linux's setsid, on Linux; where there is none (macOS), the binaries share the JVM's process group. */
    private static final String SETSID = onPath("setsid");

    private final String name;
    private final Path log;
    private final Process process;

    private ControlPlaneProcess(String name, Path log, Process process) {
        this.name = name;
        this.log = log;
        this.process = process;
    }

    /** Starts a process that ends with this JVM at the latest (its watchdog's pipe). */
    static ControlPlaneProcess start(String name, List<String> command, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        List<String> wrapped = inOwnSession();
        wrapped.addAll(List.of("sh", "-c", WATCHDOG, name));
        wrapped.addAll(command);
        Process process = new ProcessBuilder(wrapped)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new ControlPlaneProcess(name, log, process);
    }

    /**
     * Starts a process that outlives this JVM: no watchdog, stdin from {@code /dev/null}, its output
     * appended to {@code log} (which keeps the earlier starts' output).
     */
    static ControlPlaneProcess startDetached(String name, List<String> command, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        List<String> wrapped = inOwnSession();
        wrapped.addAll(command);
        Process process = new ProcessBuilder(wrapped)
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        return new ControlPlaneProcess(name, log, process);
    }

    private static List<String> inOwnSession() {
        List<String> wrapped = new ArrayList<>();
        if (SETSID != null) {
            wrapped.add(SETSID);   // a child of the JVM leads no process group, so setsid execs in place: same pid
        }
        return wrapped;
    }

    /** Its output, appended to by the process. */
    Path log() {
        return log;
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
        tree.forEach(ProcessHandle::destroyForcibly);   // the watchdog first, as in stop()
        process.destroyForcibly();
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
        // The watchdog first, so that it does not act on a stop that is ours.
        List<ProcessHandle> tree = process.descendants().toList();
        tree.forEach(ProcessHandle::destroy);
        terminate(process.toHandle());
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /** SIGTERM, then SIGKILL if the process has not ended within the grace period; returns once it has ended. */
    static void terminate(ProcessHandle process) {
        process.destroy();
        try {
            try {
                process.onExit().get(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                process.destroyForcibly();
                process.onExit().get(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("pid " + process.pid() + " did not end after SIGKILL", e);
        }
    }

    private static String onPath(String command) {
        String path = System.getenv().getOrDefault("PATH", "");
        String found = Stream.of(path.split(File.pathSeparator)).filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, command)).filter(Files::isExecutable)
                .map(Path::toString).findFirst().orElse(null);
        if (found == null) {
            LOG.info("No {} on PATH: the local cluster shares this process's process group, so a terminal's Ctrl-C"
                    + " stops it at once, not after the operator", command);
        }
        return found;
    }
}
