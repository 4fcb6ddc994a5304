package io.kopf4j.internal.engines.daemons;

import io.kopf4j.internal.intents.SpawningHandler;
import io.kopf4j.internal.intents.TimerHandler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One daemon or timer of one object (Kopf's {@code Daemon} record): its handler, its stop flag, a
 * daemon's virtual thread (a timer has one only while it runs, and is never cancelled), and two moments: {@link #exited} when its thread ends, {@link #settled}
 * when it no longer holds its object (exited, or abandoned).
 */
final class RunningDaemon {
    final SpawningHandler handler;
    final Stopper stopper = new Stopper();
    final CompletableFuture<Void> exited = new CompletableFuture<>();
    final CompletableFuture<Void> settled = new CompletableFuture<>();
    /** The escalation of a stop has begun (for a deletion or mismatch, or for a pause or exit): once each. */
    final AtomicBoolean escalatingForObject = new AtomicBoolean();
    final AtomicBoolean escalatingForOperator = new AtomicBoolean();
    /** A daemon's thread, which its cancellation interrupts; null for a timer. */
    volatile Thread thread;

    RunningDaemon(SpawningHandler handler) {
        this.handler = handler;
    }

    String kind() {
        return handler instanceof TimerHandler ? "timer" : "daemon";
    }

    String title() {
        return handler.title();
    }
}
