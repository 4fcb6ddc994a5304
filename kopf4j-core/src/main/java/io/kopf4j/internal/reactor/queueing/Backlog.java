package io.kopf4j.internal.reactor.queueing;

import io.kopf4j.internal.watching.WatchEvent;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * One object's events waiting for its worker, in their order of arrival, and the "stream pressure"
 * of Kopf: whoever sleeps on behalf of the object (for the consistency of its own patch, for delayed
 * handlers, for throttling) is woken as soon as a newer event arrives, without taking it.
 */
final class Backlog implements Pressure {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final ArrayDeque<WatchEvent> events = new ArrayDeque<>();

    void put(WatchEvent event) {
        lock.lock();
        try {
            events.addLast(event);
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The oldest event, waiting up to the timeout for one; null if none came. */
    WatchEvent take(Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (events.isEmpty()) {
                if (left <= 0) {
                    return null;
                }
                left = arrived.awaitNanos(left);
            }
            return events.pollFirst();
        } finally {
            lock.unlock();
        }
    }

    boolean isEmpty() {
        lock.lock();
        try {
            return events.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Empties the backlog; returns how many of the events dropped are of the kind counted. */
    int drain(Predicate<WatchEvent> counted) {
        lock.lock();
        try {
            int dropped = (int) events.stream().filter(counted).count();
            events.clear();
            return dropped;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Duration sleep(Duration duration) throws InterruptedException {
        long deadline = System.nanoTime() + Math.max(0, duration.toNanos());
        lock.lock();
        try {
            while (events.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                arrived.awaitNanos(left);
            }
            return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        } finally {
            lock.unlock();
        }
    }
}
