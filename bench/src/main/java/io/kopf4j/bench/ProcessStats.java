package io.kopf4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's CPU time and memory from Linux's {@code /proc}: all its threads, the JVM's own (GC,
 * compiler) included.
 *
 * <pre>{@code
 * double cpu = ProcessStats.cpuSeconds(process.pid());
 * double peak = ProcessStats.memoryMiB(process.pid(), "VmHWM");
 * long osThreads = ProcessStats.threads(process.pid());
 * }</pre>
 */
final class ProcessStats {
    /** Linux's USER_HZ, the unit of /proc/PID/stat's times, 100 on every common platform. */
    private static final double TICKS_PER_SECOND = 100.0;

    private ProcessStats() {
    }

    /** User plus system CPU seconds so far. */
    static double cpuSeconds(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;   // utime, stime
    }

    /** A memory field of /proc/PID/status in MiB: {@code VmRSS} (now) or {@code VmHWM} (the peak RSS). */
    static double memoryMiB(long pid, String field) throws IOException {
        return statusField(pid, field) / 1024.0;   // the file gives kB
    }

    /**
     * The process's OS threads now ({@code Threads:} of /proc/PID/status): the JVM's own and the
     * carriers of virtual threads, not the virtual threads themselves.
     */
    static long threads(long pid) throws IOException {
        return statusField(pid, "Threads");
    }

    private static long statusField(long pid, String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no " + field + " in /proc/" + pid + "/status");
    }
}
