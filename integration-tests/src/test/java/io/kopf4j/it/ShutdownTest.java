package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

/**
 * Signals to the real command in its own JVM: a graceful stop, Kopf's last resort when it hangs, and
 * a terminal's Ctrl-C with a local cluster.
 */
@ExtendWith(LocalClusterExtension.class)
class ShutdownTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String HANG = "KOPF4J_TEST_HANG_IN_CLEANUP";
    /** Set: the operator's {@code settings.process.ultimateExitingTimeout}, in seconds; unset: the default (600 s). */
    private static final String ULTIMATE = "KOPF4J_TEST_ULTIMATE_EXITING_TIMEOUT";
    /** The local cluster's start and the example's compilation, on a busy machine. */
    private static final Duration LOCAL_CLUSTER_STARTUP = Duration.ofMinutes(3);
    /** "A few seconds": a Ctrl-C that reached the control plane first took 108 s (retries against it). */
    private static final Duration CTRL_C_EXIT = Duration.ofSeconds(20);
    private static final Duration ULTIMATE_EXITING_TIMEOUT = Duration.ofSeconds(2);
    /**
     * What a busy machine may add to the ultimate exiting timeout, on the process' own clock (3 s: a
     * JVM just started, beside two test JVMs on two cores): still less than a timeout counted from a
     * later point would add (after the handlers' grace period of 5 s, say).
     */
    private static final Duration ULTIMATE_EXIT_MARGIN = Duration.ofSeconds(3);
    private static final Pattern LOG_TIME = Pattern.compile("^\\[([-0-9 :,]+)\\] .*", Pattern.MULTILINE);

    public static class Handlers {
        @On.Startup
        public void configure(OperatorSettings settings) {
            String ultimate = System.getenv(ULTIMATE);
            if (ultimate != null) {
                settings.process.ultimateExitingTimeout = Duration.ofSeconds(Long.parseLong(ultimate));
            }
        }

        @On.Create("kopfexamples")
        public String slow(Logger logger) throws InterruptedException {
            logger.info("Slow handler started");
            Thread.sleep(1500);
            return "done";
        }

        @On.Cleanup
        public void cleanup(Logger logger) throws InterruptedException {
            logger.info("Cleaning up");
            if ("1".equals(System.getenv(HANG))) {
                Thread.sleep(Long.MAX_VALUE);
            }
        }
    }

    @TempDir
    Path dir;

    @Test
    void aHandlerInFlightFinishesAndItsOutcomeIsStoredBeforeTheExit(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        Path log = dir.resolve("operator.log");
        // The default ultimate exiting timeout: with the 2 s of the test below, the rest of the handler's 1.5 s,
        // its outcome's PATCH, the cleanup and the exit would all have to fit in 2 s from the signal, on a busy
        // machine too. A stop that does not come within the 30 s waited for fails as before.
        Process process = fixture.runInOwnJvm(log, Map.of(HANG, "0"), Handlers.class);
        try {
            examples.create("ex", Map.of());
            await().atMost(WAIT).until(() -> Files.readString(log).contains("Slow handler started"));
            process.destroy();   // SIGTERM
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).isZero();
        } finally {
            process.destroyForcibly();
        }
        assertThat(Files.readString(log)).contains("Signal SIGTERM is received. Operator is stopping.",
                "Handler 'slow' succeeded.", "Activity 'cleanup' succeeded.");
        assertThat(examples.status("ex")).containsEntry("slow", "done");
    }

    @Test
    void aShutdownThatHangsEndsAfterTheUltimateExitingTimeout(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        Path log = dir.resolve("operator.log");
        Process process = new OperatorFixture(cluster, namespace).runInOwnJvm(log,
                Map.of(HANG, "1", ULTIMATE, String.valueOf(ULTIMATE_EXITING_TIMEOUT.toSeconds())), Handlers.class);
        try {
            process.destroy();
            assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).as("Kopf's ultimate exit").isEqualTo(3);
        } finally {
            process.destroyForcibly();
        }
        String output = Files.readString(log);
        assertThat(output).contains("Cleaning up");
        // Counted from the signal: the process' own times of the two lines, not the test's clock around a JVM exit.
        Duration waited = Duration.between(loggedAt(output, "Signal SIGTERM is received. Operator is stopping."),
                loggedAt(output, "The operator did not stop within 2.0 s after SIGTERM; exiting."));
        assertThat(waited).isBetween(ULTIMATE_EXITING_TIMEOUT, ULTIMATE_EXITING_TIMEOUT.plus(ULTIMATE_EXIT_MARGIN));
    }

    /** {@code jcmd PID Thread.print} of a JVM, or why there is none. */
    private static String threadDump(long pid) {
        try {
            Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(pid), "Thread.print").redirectErrorStream(true).start();
            String dump = new String(jcmd.getInputStream().readAllBytes());
            jcmd.waitFor(10, TimeUnit.SECONDS);
            return dump;
        } catch (Exception e) {
            return "(no thread dump: " + e + ")";
        }
    }

    /** The time of the first log line that contains {@code text}, as the process logged it. */
    private static LocalDateTime loggedAt(String output, String text) {
        Matcher line = LOG_TIME.matcher(output);
        while (line.find()) {
            if (line.group().contains(text)) {
                return LocalDateTime.parse(line.group(1).replace(' ', 'T').replace(',', '.'));
            }
        }
        throw new AssertionError("no line with '" + text + "' in:\n" + output);
    }

    /**
     * A terminal sends Ctrl-C's SIGINT to its whole foreground process group. The operator stops
     * first, its handlers and the cleanup of its webhook configurations done while the API server
     * still answers, then the cluster: no ERROR, no retry against a dead API server.
     */
    @Test
    void ctrlCInATerminalStopsTheOperatorThenItsLocalClusterWithinSeconds() throws Exception {
        Path log = dir.resolve("kopf4j.log");
        // setsid: a process group (and session) of its own, as a terminal gives its foreground job; its id is the pid.
        // env --default-signal=INT: SIGINT handled as in a terminal's foreground job even when this test runs in a
        // background job (`.ci/run &`), whose children inherit SIGINT ignored, and a JVM does not take over an
        // ignored SIGINT (it ran on, never told of the Ctrl-C).
        Process process = new ProcessBuilder("setsid", "env", "--default-signal=INT",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.kopf4j.cli.Main", "run", "--local-cluster",
                "--crd", "../examples/crd.yaml", "../examples/17-admission/AdmissionExample.java")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        List<ProcessHandle> controlPlane = List.of();
        try {
            await().atMost(LOCAL_CLUSTER_STARTUP).until(() -> Files.readString(log).contains("serves 6 handler(s) cluster-wide")
                    && Files.readString(log).contains("Reconfiguring the mutating webhook auto.kopf.dev."));
            controlPlane = process.descendants().filter(ShutdownTest::isControlPlane).toList();
            assertThat(controlPlane).as("etcd and kube-apiserver").hasSize(2);
            signalProcessGroup("INT", process.pid());
            try {
                await().atMost(CTRL_C_EXIT).until(() -> !process.isAlive());
            } catch (ConditionTimeoutException e) {
                // What it waits for, seen only while it still runs: its threads, then what it logged.
                throw new AssertionError("still running " + CTRL_C_EXIT.toSeconds() + " s after Ctrl-C; its threads:\n"
                        + threadDump(process.pid()) + "\nits log:\n" + Files.readString(log), e);
            }
        } finally {
            if (process.isAlive()) {
                signalProcessGroup("KILL", process.pid());
            }
            controlPlane.forEach(ProcessHandle::destroyForcibly);
        }
        assertThat(process.exitValue()).isZero();
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).noneMatch(line -> line.contains("ERROR"));
        assertThat(String.join("\n", lines)).contains("Signal SIGINT is received. Operator is stopping.",
                "Cleaning up the admission webhook auto.kopf.dev.");
        assertThat(lines).anyMatch(line -> line.matches(".*Local cluster https://\\S+ stopped"));
        assertThat(controlPlane).noneMatch(ProcessHandle::isAlive);
    }

    private static boolean isControlPlane(ProcessHandle process) {
        return process.info().command().map(command -> command.endsWith("/etcd") || command.endsWith("/kube-apiserver"))
                .orElse(false);
    }

    private static void signalProcessGroup(String signal, long processGroup) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, "--", "-" + processGroup).inheritIO().start();
        assertThat(kill.waitFor()).as("kill -%s -%d", signal, processGroup).isZero();
    }
}
