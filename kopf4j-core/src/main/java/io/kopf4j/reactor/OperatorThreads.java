package io.kopf4j.reactor;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.MDC;

/**
 * Starts the operator's virtual threads, each tagged with the operator's id in the logging MDC
 * (key {@value #MDC_KEY}), so that the log lines of two operators in one JVM can be told apart.
 * Keeps track of them to interrupt what is still running at shutdown.
 */
public final class OperatorThreads {
    public static final String MDC_KEY = "kopf4j.operator";

    private final String operatorId;
    private final Set<Thread> running = ConcurrentHashMap.newKeySet();

    public OperatorThreads(String operatorId) {
        this.operatorId = operatorId;
    }

    public Thread start(String name, Runnable body) {
        return Thread.ofVirtual().name(name).start(() -> {
            running.add(Thread.currentThread());
            MDC.put(MDC_KEY, operatorId);
            try {
                body.run();
            } finally {
                MDC.remove(MDC_KEY);
                running.remove(Thread.currentThread());
            }
        });
    }

    /** Interrupts every thread still running and waits for them, up to the deadline. */
    public boolean interruptAndJoin(long deadlineNanos) throws InterruptedException {
        for (Thread thread : running) {
            thread.interrupt();
        }
        for (Thread thread : running) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0 || !thread.join(java.time.Duration.ofNanos(left))) {
                return false;
            }
        }
        return true;
    }
}
