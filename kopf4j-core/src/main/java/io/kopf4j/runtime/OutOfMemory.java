package io.kopf4j.runtime;

/**
 * The one line an operator stops with when the JVM runs out of memory, naming the setting to raise.
 * Every other {@link Error} a handler throws ({@link StackOverflowError} included) is a handler's
 * failure like any exception, as Kopf treats Python's {@code RecursionError} and {@code MemoryError}:
 * only the JVM's own exhaustion leaves nothing to trust, so only it stops the operator.
 *
 * <p>The {@code kopf4j} launcher prints the same line from the JVM's {@code -XX:OnOutOfMemoryError}
 * hook ({@code scripts/jvm-options.sh}), since with its heap exhausted no Java code can be relied on
 * to run; this class says it for an operator embedded in a JVM of the user's.
 *
 * <pre>{@code
 * } catch (OutOfMemoryError e) {
 *     LOG.error(OutOfMemory.line(e));   // "Out of memory (Java heap space) with a maximum heap of 512 MB: raise ..."
 * }
 * }</pre>
 */
public final class OutOfMemory {
    private OutOfMemory() {
    }

    /** {@return the line: what ran out, the maximum heap in force, and what to raise} */
    public static String line(OutOfMemoryError error) {
        String what = error.getMessage() == null ? "java.lang.OutOfMemoryError" : error.getMessage();
        return "Out of memory (" + what + ") with a maximum heap of "
                + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB: raise the memory limit of its container,"
                + " or the heap's share of it (-XX:MaxRAMPercentage=, or -Xmx; with the kopf4j launcher in KOPF4J_JAVA_OPTS).";
    }
}
