package io.kopf4j.internal.runtime;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.MDC;

/**
 * Starts the operator's virtual threads, each tagged with the operator's id in the logging MDC
 * (key {@value #MDC_KEY}), so that the log lines of two operators in one JVM can be told apart.
 * Keeps track of them so that a shutdown can wait for handlers in flight, then interrupt.
 *
 * <pre>{@code
 * OperatorThreads threads = new OperatorThreads("operator-1");
 * threads.start("watcher", () -> log.info("tagged with kopf4j.operator=operator-1"));
 * threads.awaitAll(System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
 * }</pre>
 */
public final class OperatorThreads {
    /** The MDC key of the operator's id: a log pattern shows it with {@code %X{kopf4j.operator}}. */
    public static final String MDC_KEY = "kopf4j.operator";

    private final String operatorId;
    private final Set<Thread> running = ConcurrentHashMap.newKeySet();

    /**
     * Threads of one operator.
     *
     * @param operatorId the value of the MDC key in its threads, e.g. {@code "operator-1"}
     */
    public OperatorThreads(String operatorId) {
        this.operatorId = operatorId;
    }

    /**
     * Starts a virtual thread tagged with the operator's id, which a shutdown waits for.
     *
     * @param name the thread's name, e.g. {@code "watcher/kopfexamples"}
     * @param body what it runs
     * @return the started thread
     */
    public Thread start(String name, Runnable body) {
        return Thread.ofVirtual().name(name).start(new Tagged(operatorId, body, running));
    }

    /**
     * A thread that serves the others until the operator closes it (the authenticator): a
     * shutdown does not wait for it, as handlers in flight may still need it.
     *
     * @param name the thread's name, e.g. {@code "authenticator"}
     * @param body what it runs
     * @return the started thread
     */
    public Thread startService(String name, Runnable body) {
        return Thread.ofVirtual().name(name).start(new Tagged(operatorId, body, null));
    }

    /**
     * A thread's body, tagged with the operator's id and, unless {@code tracked} is null, tracked
     * while it runs. One frame under the body (a lambda around a method would be two or three), as
     * each stays on the stack of every parked daemon.
     */
    private record Tagged(String operatorId, Runnable body, Set<Thread> tracked) implements Runnable {
        @Override
        public void run() {
            Thread current = Thread.currentThread();
            if (tracked != null) {
                tracked.add(current);
            }
            MDC.put(MDC_KEY, operatorId);
            try {
                body.run();
            } finally {
                MDC.remove(MDC_KEY);
                if (tracked != null) {
                    tracked.remove(current);
                }
            }
        }
    }

    /**
     * Waits until every thread has ended, up to the deadline; true if they all did.
     *
     * @param deadlineNanos the deadline on the {@link System#nanoTime()} clock
     * @return true if every thread ended in time
     * @throws InterruptedException if this thread is interrupted while waiting
     */
    public boolean awaitAll(long deadlineNanos) throws InterruptedException {
        for (Thread thread : running) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0 || !thread.join(Duration.ofNanos(left))) {
                return false;
            }
        }
        return true;
    }

    /** Interrupts every thread still running (a handler that ignores it runs on, abandoned). */
    public void interruptAll() {
        running.forEach(Thread::interrupt);
    }
}
