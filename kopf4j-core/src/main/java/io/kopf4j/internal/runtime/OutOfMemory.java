package io.kopf4j.internal.runtime;

/**
 * What happens when the JVM runs out of memory: the operator stops with one line that says so and
 * names the setting to raise. Every other {@link Error} a handler throws ({@link StackOverflowError}
 * included) is a handler's failure like any exception, as Kopf treats Python's {@code RecursionError}
 * and {@code MemoryError}: only the JVM's own exhaustion leaves nothing to trust.
 *
 * <p>The {@code kopf4j} command {@linkplain #exitOnOutOfMemory() exits} at once, with code 3, from
 * wherever the error shows: an uncaught one on any thread, or one that the operator's processing,
 * daemons and timers catch. It replaces the JVM's {@code -XX:+ExitOnOutOfMemoryError}, which exits
 * before any Java code can say which setting to raise, and whose {@code -XX:OnOutOfMemoryError} hook
 * prints a block of the JVM's own lines around the hook's. An operator embedded in a JVM of the
 * user's is not exited: it {@linkplain io.kopf4j.Operator#failure() fails} with the same line.
 *
 * <pre>{@code
 * OutOfMemory.exitOnOutOfMemory();   // the command's main(): the process is the operator's
 * ...
 * } catch (OutOfMemoryError e) {
 *     OutOfMemory.thrown(e);         // exits there; embedded, returns, and the caller fails the operator
 * }
 * }</pre>
 */
public final class OutOfMemory {
    /** The exit code, as the JVM's {@code -XX:+ExitOnOutOfMemoryError}. */
    public static final int EXIT_CODE = 3;

    private static volatile boolean exiting;
    /**
     * Room to say the line in: when the heap is held by live data (a handler that keeps what it
     * allocates), even the line's few strings cannot be allocated until this is let go.
     */
    @SuppressWarnings("unused")
    private static volatile byte[] reserve;

    private OutOfMemory() {
    }

    /**
     * {@return the line: what ran out, the maximum heap in force, and what to raise}
     *
     * @param error the error, whose message says what ran out (e.g. {@code Java heap space})
     */
    public static String line(OutOfMemoryError error) {
        String what = error.getMessage() == null ? "java.lang.OutOfMemoryError" : error.getMessage();
        return "Out of memory (" + what + ") with a maximum heap of " + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                + " MB: raise the memory limit of its container, or the heap's share of it"
                + " (-XX:MaxRAMPercentage=, or -Xmx; with the kopf4j launcher in KOPF4J_JAVA_OPTS).";
    }

    /**
     * From now on, this process exits on an out-of-memory error: one that no thread catches, and
     * one that the operator catches ({@link #thrown}). For a process that is the operator's alone.
     */
    public static void exitOnOutOfMemory() {
        reserve = new byte[1024 * 1024];
        exiting = true;
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
            if (error instanceof OutOfMemoryError outOfMemory) {
                exit(outOfMemory);
            } else if (previous != null) {
                previous.uncaughtException(thread, error);
            } else {
                // What the JVM prints when there is no handler. Not ThreadGroup.uncaughtException: it calls the
                // default handler, this one, again, and the error would end as a StackOverflowError.
                System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                error.printStackTrace(System.err);
            }
        });
    }

    /**
     * The operator caught an out-of-memory error: exits if {@link #exitOnOutOfMemory()} was asked
     * for; returns otherwise, for the caller to fail the operator.
     *
     * @param error the error caught, for the line logged before the exit
     */
    public static void thrown(OutOfMemoryError error) {
        if (exiting) {
            exit(error);
        }
    }

    /** The line, and the exit: halt, since a graceful stop would need the memory that ran out. */
    private static void exit(OutOfMemoryError error) {
        reserve = null;
        try {
            System.err.println(line(error));
            System.err.flush();
        } finally {
            Runtime.getRuntime().halt(EXIT_CODE);
        }
    }
}
